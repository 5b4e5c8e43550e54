import { describe, expect, it } from 'vitest';
import { computeTotals } from './input';

describe('computeTotals', () => {
  it('rounds each line half away from zero, then sums', () => {
    expect(computeTotals([{ quantity: '3', unit_price_cents: 1999, tax_rate: '20' }])).toEqual({
      subtotal: 5997,
      tax: 1199,
    });
    expect(computeTotals([{ quantity: '0.5', unit_price_cents: 1001, tax_rate: '5.5' }])).toEqual({
      subtotal: 501,
      tax: 28,
    });
    expect(computeTotals([{ quantity: '1.005', unit_price_cents: 100 }])).toEqual({
      subtotal: 101,
      tax: 0,
    });
    expect(computeTotals([])).toEqual({ subtotal: 0, tax: 0 });
    expect(computeTotals([{ quantity: '-2', unit_price_cents: 250, tax_rate: '10' }])).toEqual({
      subtotal: -500,
      tax: -50,
    });
  });
});
