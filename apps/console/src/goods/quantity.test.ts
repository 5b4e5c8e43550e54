import { describe, expect, it } from 'vitest';
import { formatQuantity, parseQuantity, remainingOf } from './quantity';

describe('quantities', () => {
  it('reads decimal strings exactly, refusing what is not a non-negative decimal', () => {
    expect(parseQuantity('12.5')).toBe(12_500_000n);
    expect(parseQuantity('0.000001')).toBe(1n);
    expect(parseQuantity('3.')).toBe(3_000_000n);
    expect(parseQuantity(' .5 ')).toBe(500_000n);
    expect(parseQuantity('1.0000000')).toBe(1_000_000n);
    for (const bad of ['', '-1', 'abc', '1,5', '0.0000001', null, undefined])
      expect(parseQuantity(bad)).toBeUndefined();
  });

  it('writes the shortest decimal', () => {
    expect(formatQuantity(12_500_000n)).toBe('12.5');
    expect(formatQuantity(3_000_000n)).toBe('3');
    expect(formatQuantity(1n)).toBe('0.000001');
    expect(formatQuantity(-2_250_000n)).toBe('-2.25');
  });

  it('says what remains of a line, never below zero', () => {
    expect(remainingOf('10', '4')).toBe('6');
    expect(remainingOf('10.000', '2.5')).toBe('7.5');
    expect(remainingOf('3', null)).toBe('3');
    expect(remainingOf('3', '5')).toBe('0');
    // 0.1 + 0.2 is not a binary float here.
    expect(remainingOf('0.3', '0.1')).toBe('0.2');
  });
});
