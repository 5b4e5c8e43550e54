import { describe, expect, it } from 'vitest';
import type { FieldInfo } from './catalogue-types';
import { currencyDigits } from './field-kinds';
import { displayValue, fromInput, toInput } from './values';

const money: FieldInfo = { name: 'total_cents', type: 'money' };

describe('field values between the API and the screen', () => {
  it('shows and reads amounts in major units with the currency’s exponent', () => {
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('nonsense')).toBe(2);
    expect(displayValue(money, 123456, 'EUR')).toBe('1,234.56 EUR');
    expect(toInput(money, 1250, 'EUR')).toBe('12.50');
    expect(fromInput(money, '12.5', 'EUR')).toBe(1250);
    expect(fromInput(money, '1 250', 'JPY')).toBe(1250);
    // Not a number: sent as typed, so the API's refusal lands next to the field.
    expect(fromInput(money, 'abc', 'EUR')).toBe('abc');
  });

  it('leaves an empty input out, keeps decimals as strings and text untrimmed', () => {
    expect(fromInput({ name: 'q', type: 'decimal' }, ' ', undefined)).toBeUndefined();
    expect(fromInput({ name: 'q', type: 'decimal' }, '0.1', undefined)).toBe('0.1');
    expect(fromInput({ name: 'n', type: 'text' }, ' a ', undefined)).toBe(' a ');
    expect(fromInput({ name: 'b', type: 'boolean' }, 'false', undefined)).toBe(false);
    expect(fromInput({ name: 'i', type: 'integer' }, '42', undefined)).toBe(42);
  });

  it('turns a local date-time into an instant and back', () => {
    const field: FieldInfo = { name: 'at', type: 'timestamp' };
    const instant = fromInput(field, '2026-03-05T10:30', undefined) as string;
    expect(new Date(instant).getTime()).toBe(new Date('2026-03-05T10:30').getTime());
    expect(toInput(field, instant, undefined)).toBe('2026-03-05T10:30');
  });
});
