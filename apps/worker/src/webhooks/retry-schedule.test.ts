import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextRetryDelay, parseRetryAfter } from './retry-schedule';

describe('nextRetryDelay', () => {
  it('is base × attempt², within ±10 % jitter', () => {
    for (const attempt of [1, 2, 5, 19]) {
      const low = nextRetryDelay(attempt, { baseMs: 60_000, random: () => 0 });
      const high = nextRetryDelay(attempt, { baseMs: 60_000, random: () => 0.999999 });
      expect(low).toBe(Math.round(60_000 * attempt * attempt * 0.9));
      expect(high).toBeCloseTo(60_000 * attempt * attempt * 1.1, -2);
    }
  });

  it('sums to about two days over the automatic attempts', () => {
    let total = 0;
    for (let a = 1; a < MAX_ATTEMPTS; a++)
      total += nextRetryDelay(a, { baseMs: 60_000, random: () => 0.5 });
    expect(total / 3600_000).toBeGreaterThan(40);
    expect(total / 3600_000).toBeLessThan(48);
  });

  it('honours a longer Retry-After, never a shorter one, and caps it at a day', () => {
    expect(nextRetryDelay(1, { baseMs: 60_000, retryAfterMs: 600_000, random: () => 0.5 })).toBe(
      600_000,
    );
    expect(nextRetryDelay(3, { baseMs: 60_000, retryAfterMs: 1_000, random: () => 0.5 })).toBe(
      540_000,
    );
    expect(nextRetryDelay(1, { baseMs: 60_000, retryAfterMs: 9e9, random: () => 0.5 })).toBe(
      86_400_000,
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});
