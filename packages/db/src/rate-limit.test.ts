import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeRateLimitUnit } from './rate-limit';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

async function take(keys: string[], limits: number[], windowMs = 60_000) {
  const { rows } = await sql<{ allowed: boolean; remaining: number; reset_ms: string }>`
    SELECT * FROM rate_limit_take(${keys}::text[], ${limits}::int[], ${windowMs})
  `.execute(tdb.db);
  return rows[0]!;
}

describe('rate_limit_take', () => {
  it('allows exactly the limit, then refuses with a reset in the future', async () => {
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await take(['a'], [5]));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    const reset = Number(results[6]!.reset_ms);
    expect(reset).toBeGreaterThan(Date.now() + 59_000);
    expect(reset).toBeLessThanOrEqual(Date.now() + 62_000);
  });

  it('takes from every bucket or from none', async () => {
    await take(['tenant-x'], [1]);
    const refused = await take(['key-y', 'tenant-x'], [10, 1]);
    expect(refused.allowed).toBe(false);
    // key-y was not charged for the refused request: its 10 units are intact.
    const alone = await take(['key-y'], [10]);
    expect(alone.remaining).toBe(9);
  });

  it('gives units back once the window has passed', async () => {
    // A 600 ms window: slots of 10 ms, a unit counts for 610 ms at most.
    expect((await take(['fast'], [2], 600)).allowed).toBe(true);
    expect((await take(['fast'], [2], 600)).allowed).toBe(true);
    expect((await take(['fast'], [2], 600)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 650));
    expect((await take(['fast'], [2], 600)).allowed).toBe(true);
  });

  it('slides: units come back in the order they were taken, not all at once', async () => {
    // A 1.2 s window: slots of 20 ms; a unit counts for 1.22 s at most, 1.2 s at least.
    expect((await take(['slide'], [3], 1200)).allowed).toBe(true);
    expect((await take(['slide'], [3], 1200)).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect((await take(['slide'], [3], 1200)).allowed).toBe(true);
    expect((await take(['slide'], [3], 1200)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 700)); // the first two are back, the third is not
    const after = await take(['slide'], [3], 1200);
    expect(after).toMatchObject({ allowed: true, remaining: 1 });
    expect((await take(['slide'], [3], 1200)).allowed).toBe(true);
    expect((await take(['slide'], [3], 1200)).allowed).toBe(false);
  });

  it('counts exactly under concurrent callers', async () => {
    const all = await Promise.all(Array.from({ length: 60 }, () => take(['busy'], [25])));
    expect(all.filter((r) => r.allowed)).toHaveLength(25);
  });

  it('takeRateLimitUnit: refuses with the seconds until a unit comes back', async () => {
    const buckets = [
      { key: 'wrapper-a', limit: 5 },
      { key: 'wrapper-b', limit: 1 },
    ];
    expect(await takeRateLimitUnit(tdb.db, buckets, 3_600_000)).toEqual({ allowed: true });
    const refused = await takeRateLimitUnit(tdb.db, buckets, 3_600_000);
    expect(refused.allowed).toBe(false);
    // An hour's window of 60 slots: the unit comes back after 60 to 61 minutes.
    const after = refused.allowed ? 0 : refused.retryAfterSeconds;
    expect(after).toBeGreaterThan(3_590);
    expect(after).toBeLessThanOrEqual(3_661);
    // All or nothing: the refused take left wrapper-a's units alone (4 left of 5).
    expect((await take(['wrapper-a'], [5], 3_600_000)).remaining).toBe(3);
  });
});
