import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalDecimal,
  convertCents,
  divideRounded,
  documentTotals,
  lineNetCents,
  taxCents,
  toMillionths,
} from './amounts';

describe('exact amounts', () => {
  it('3 × 1.05 € at 5.5 % is 0.17 € of tax: rounded once per document and rate, not per line', () => {
    const line = { quantity: '1', unit_price_cents: 105, tax_rate: '5.5' };
    const totals = documentTotals([line, line, line]);
    expect(totals).toMatchObject({ subtotal_cents: 315, tax_cents: 17, total_cents: 332 });
    // Per line it would have been 3 × round(5.775) = 18.
    expect(taxCents(105n, '5.5')).toBe(6n);
    expect(documentTotals([{ ...line, quantity: '3' }]).tax_cents).toBe(17);
  });

  it('groups the tax by tax and rate', () => {
    const totals = documentTotals([
      { quantity: '2', unit_price_cents: 14_900, tax_rate: '20', tax_id: 'a' },
      { quantity: '1', unit_price_cents: 1_050, tax_rate: '5.5', tax_id: 'b' },
      { quantity: '0.5', unit_price_cents: 333, tax_rate: '20.0', tax_id: 'a' },
    ]);
    expect(totals.lines_net_cents).toEqual([29_800, 1_050, 167]);
    expect(totals.taxes).toEqual([
      { tax_id: 'a', rate: '20', base_cents: 29_967, tax_cents: 5_993 },
      { tax_id: 'b', rate: '5.5', base_cents: 1_050, tax_cents: 58 },
    ]);
    expect(totals.total_cents).toBe(29_967 + 1_050 + 5_993 + 58);
  });

  it('rounds half away from zero, credits symmetric with debits', () => {
    expect(divideRounded(5n, 2n)).toBe(3n);
    expect(divideRounded(-5n, 2n)).toBe(-3n);
    expect(divideRounded(4n, 3n)).toBe(1n);
    expect(lineNetCents('0.005', 100)).toBe(1n);
    expect(lineNetCents('-0.005', 100)).toBe(-1n);
    expect(convertCents(10_000, '1.08')).toBe(10_800n);
  });

  it('reads decimals exactly, and refuses what is not one', () => {
    expect(toMillionths('1.05')).toBe(1_050_000n);
    expect(toMillionths(1.05)).toBe(1_050_000n);
    expect(toMillionths('-0.000001')).toBe(-1n);
    for (const bad of ['1e3', '1.0000001', '', 'abc', 'NaN'])
      expect(() => toMillionths(bad)).toThrow(RangeError);
    expect(canonicalDecimal('20.000000')).toBe('20');
    expect(canonicalDecimal('-0.0')).toBe('0');
  });

  it('property: the total is the subtotal plus the tax, and scaling a line by n scales its net exactly when no rounding is involved', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 0, max: 999_999 }))
      .map(([whole, micro]) => `${whole}.${String(micro).padStart(6, '0')}`);
    const line = fc.record({
      quantity: decimal,
      unit_price_cents: fc.integer({ min: -1_000_000, max: 1_000_000 }),
      tax_rate: fc.constantFrom('0', '2.1', '5.5', '10', '20'),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const totals = documentTotals(lines);
        expect(totals.total_cents).toBe(totals.subtotal_cents + totals.tax_cents);
        expect(totals.subtotal_cents).toBe(totals.lines_net_cents.reduce((a, b) => a + b, 0));
        expect(totals.taxes.reduce((a, t) => a + t.base_cents, 0)).toBe(totals.subtotal_cents);
        // Each rate's tax is within half a cent of the exact value.
        for (const t of totals.taxes) {
          const exact = BigInt(t.base_cents) * toMillionths(t.rate) * 2n;
          const rounded = BigInt(t.tax_cents) * 100n * 1_000_000n * 2n;
          const diff = exact > rounded ? exact - rounded : rounded - exact;
          expect(diff <= 100n * 1_000_000n).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
