import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../records/catalogue';
import info from '../records/catalogue.gen.json';
import type { CatalogueInfo } from '../records/catalogue-types';
import {
  conversionLabel,
  conversionRequest,
  countedFields,
  openConversions,
  openLines,
  sourcesOf,
  targetsOf,
} from './flow';

const described = info as unknown as CatalogueInfo;
const catalogue: Catalogue = {
  ...described,
  byPath: new Map(described.resources.map((r) => [r.path, r])),
  byName: new Map(described.resources.map((r) => [r.name, r])),
};
const resource = (path: string) => catalogue.byPath.get(path)!;
const names = (
  links: { source: { name: string }; target: { name: string } }[],
  side: 'source' | 'target',
) => links.map((l) => l[side].name);

describe('the document flow as the catalogue describes it', () => {
  it('offers the conversions the status allows, labelled from their names', () => {
    const orders = resource('sales-orders');
    expect(openConversions(orders, 'brouillon')).toEqual([]);
    expect(openConversions(orders, 'confirme').map(conversionLabel)).toEqual([
      'Make delivery',
      'Make invoice',
    ]);
    expect(openConversions(orders, 'livre').map((c) => c.route)).toEqual([
      'make-delivery',
      'make-invoice',
    ]);
    expect(openConversions(orders, 'facture')).toEqual([]);
    expect(openConversions(resource('quotes'), 'accepte').map(conversionLabel)).toEqual([
      'Make sales order',
    ]);
    expect(openConversions(resource('purchase-orders'), 'envoye').map(conversionLabel)).toEqual([
      'Make goods receipt',
      'Make supplier invoice',
    ]);
    expect(openConversions(resource('invoices'), 'paye').map(conversionLabel)).toEqual([
      'Make credit note',
    ]);
    expect(openConversions(resource('invoices'), 'brouillon')).toEqual([]);
    expect(openConversions(resource('customers'), 'actif')).toEqual([]);
  });

  it('links sources and targets both ways by the target’s link field', () => {
    expect(names(targetsOf(catalogue, resource('sales-orders')), 'target')).toEqual([
      'delivery',
      'invoice',
    ]);
    expect(targetsOf(catalogue, resource('sales-orders')).map((l) => l.conversion.link)).toEqual([
      'sales_order_id',
      'sales_order_id',
    ]);
    expect(names(sourcesOf(catalogue, resource('deliveries')), 'source')).toEqual(['sales_order']);
    expect(names(sourcesOf(catalogue, resource('invoices')), 'source')).toEqual(['sales_order']);
    expect(names(targetsOf(catalogue, resource('invoices')), 'target')).toEqual(['credit_note']);
    expect(names(sourcesOf(catalogue, resource('sales-orders')), 'source')).toEqual(['quote']);
    expect(sourcesOf(catalogue, resource('goods-receipts'))[0]?.conversion.link).toBe(
      'purchase_order_id',
    );
    expect(sourcesOf(catalogue, resource('customers'))).toEqual([]);
  });

  it('shows the quantities a source’s lines count, not the source line of a target', () => {
    const lines = (path: string) => resource(path).fields.find((f) => f.name === 'lines')!;
    const counted = (path: string) => countedFields(resource(path), lines(path)).map((f) => f.name);
    expect(counted('sales-orders')).toEqual(['delivered_quantity', 'invoiced_quantity']);
    expect(counted('purchase-orders')).toEqual(['received_quantity', 'billed_quantity']);
    expect(counted('quotes')).toEqual(['ordered_quantity']);
    expect(counted('invoices')).toEqual(['credited_quantity']);
    expect(counted('deliveries')).toEqual([]);
    expect(lines('deliveries').lineReadOnly?.map((f) => f.name)).toContain('source_line_id');
  });
});

describe('the quantities dialog’s request', () => {
  const delivery = resource('sales-orders').conversions![0]!;
  const order = {
    lines: [
      { id: 'a', description: 'Chair', quantity: '10', delivered_quantity: '4' },
      { id: 'b', description: 'Desk', quantity: '2.5', delivered_quantity: '0' },
      { id: 'c', description: 'Lamp', quantity: '1', delivered_quantity: '1' },
    ],
  };
  const lines = openLines(order, delivery);

  it('lists each line with what remains', () => {
    expect(lines.map((l) => [l.id, l.remaining])).toEqual([
      ['a', '6'],
      ['b', '2.5'],
      ['c', '0'],
    ]);
  });

  it('sends no body when every line takes all that remains', () => {
    expect(conversionRequest(lines, {})).toEqual({ body: undefined });
    expect(conversionRequest(lines, { a: '6.0', b: '2.50' })).toEqual({ body: undefined });
  });

  it('sends the lines asked when a part is taken, leaving out those at 0', () => {
    expect(conversionRequest(lines, { a: '3' })).toEqual({
      body: {
        lines: [
          { line_id: 'a', quantity: '3' },
          { line_id: 'b', quantity: '2.5' },
        ],
      },
    });
    expect(conversionRequest(lines, { b: '0' })).toEqual({
      body: { lines: [{ line_id: 'a', quantity: '6' }] },
    });
  });

  it('refuses what is not a quantity or more than remains, by line', () => {
    expect(conversionRequest(lines, { a: '7', b: 'two' })).toEqual({
      invalid: {
        a: 'More than remains (6).',
        b: 'Not a quantity: a number such as 2 or 1.5.',
      },
    });
    expect(conversionRequest(lines, { a: '-1' })).toMatchObject({
      invalid: { a: expect.any(String) },
    });
  });

  it('says so when nothing is asked at all', () => {
    expect(conversionRequest(lines, { a: '0', b: '0' })).toEqual({ nothing: true });
    expect(conversionRequest([], {})).toEqual({ nothing: true });
  });
});
