import { describe, expect, it } from 'vitest';
import { centsToDecimal, currencyDigits, formatAmount, formatCents, parseAmount } from './money';

describe('amounts in exact decimal', () => {
  it('knows each currency’s decimals', () => {
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('BHD')).toBe(3);
    expect(currencyDigits('nonsense')).toBe(2);
  });

  it('shows minor units as major ones without a float division', () => {
    expect(formatCents(123456, 'EUR')).toBe('1,234.56 EUR');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(0, 'EUR')).toBe('0.00 EUR');
    expect(formatCents(1250, 'JPY')).toBe('1,250 JPY');
    expect(formatCents(1234567, 'BHD')).toBe('1,234.567 BHD');
    // Beyond what a double holds exactly, every digit stays.
    expect(formatCents(123456789012345678901n)).toBe('1,234,567,890,123,456,789.01');
    expect(formatCents('-100000')).toBe('-1,000.00');
    expect(formatAmount(123456, 'EUR')).toBe('1,234.56');
    expect(formatAmount(-123456, 'JPY')).toBe('-123,456');
    // 0.1 + 0.2 is no amount here: 30 cents are 0.30.
    expect(centsToDecimal(10 + 20, 'EUR')).toBe('0.30');
    expect(centsToDecimal(-123456, 'EUR')).toBe('-1234.56');
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });

  it('reads what people type as minor units', () => {
    expect(parseAmount('12.5', 'EUR')).toBe(1250n);
    expect(parseAmount('1 250', 'JPY')).toBe(1250n);
    expect(parseAmount('1,250.50', 'EUR')).toBe(125050n);
    expect(parseAmount('.5', 'EUR')).toBe(50n);
    expect(parseAmount('-0.05', 'EUR')).toBe(-5n);
    // 1.005 × 100 is 100.49999… in binary floating point; here it rounds half up, as written.
    expect(parseAmount('1.005', 'EUR')).toBe(101n);
    expect(parseAmount('1.004', 'EUR')).toBe(100n);
    expect(parseAmount('90071992547409.93', 'EUR')).toBe(9007199254740993n);
    for (const text of ['', 'abc', '1.2.3', '-', '.', '1e3'])
      expect(parseAmount(text)).toBeUndefined();
  });
});
