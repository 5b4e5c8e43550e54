import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { resourceNoun } from './prose';

describe('resourceNoun', () => {
  it('gives the article the name takes', () => {
    expect(resourceNoun('sales_order')).toBe('a sales order');
    expect(resourceNoun('invoice', true)).toBe('An invoice');
    expect(resourceNoun('expense_report')).toBe('an expense report');
    expect(resourceNoun('unit_of_measure', true)).toBe('A unit of measure');
  });

  it('leaves no "a" before a vowel in the served document', () => {
    const text = JSON.stringify(openapi);
    expect(text.match(/\b[Aa] (?:[aeio]\w+)/g) ?? []).toEqual([]);
  });
});
