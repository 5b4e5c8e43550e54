import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalogueFile, OUTPUT } from './codegen';

describe('catalogue.gen.json', () => {
  it('matches the registry (run `pnpm codegen` when this fails)', async () => {
    const committed = await readFile(OUTPUT, 'utf8');
    expect(committed === catalogueFile(), 'src/records/catalogue.gen.json is stale').toBe(true);
  });

  it('describes every resource with what the browser needs', () => {
    const catalogue = JSON.parse(catalogueFile());
    const orders = catalogue.resources.find((r: { path: string }) => r.path === 'sales-orders');
    expect(orders).toMatchObject({ name: 'sales_order', module: 'sales', label: 'number' });
    expect(orders.lifecycle.actions.map((a: { name: string }) => a.name)).toEqual([
      'confirm',
      'deliver',
      'invoice',
      'cancel',
    ]);
    const status = orders.fields.find((f: { name: string }) => f.name === 'status');
    expect(status).toMatchObject({ type: 'enum', readOnly: true, filterable: true });
    const customer = orders.fields.find((f: { name: string }) => f.name === 'customer_id');
    expect(customer).toMatchObject({ type: 'reference', ref: 'customer', required: true });
    expect(catalogue.operators.text).toContain('ilike');
  });

  it('describes the document flow and the stock views (SPEC §18)', () => {
    const catalogue = JSON.parse(catalogueFile());
    const byPath = (path: string) =>
      catalogue.resources.find((r: { path: string }) => r.path === path);
    expect(byPath('sales-orders').conversions[0]).toEqual({
      name: 'make_delivery',
      route: 'make-delivery',
      target: 'delivery',
      from: ['confirme', 'livre'],
      link: 'sales_order_id',
      counts: 'delivered_quantity',
      goods: true,
    });
    const lines = byPath('sales-orders').fields.find((f: { name: string }) => f.name === 'lines');
    expect(lines.lineReadOnly.map((f: { name: string }) => f.name)).toEqual([
      'source_line_id',
      'delivered_quantity',
      'invoiced_quantity',
    ]);
    expect(lines.fields.some((f: { name: string }) => f.name === 'delivered_quantity')).toBe(false);
    expect(byPath('stock-levels')).toMatchObject({ module: 'inventory', readOnly: true });
    expect(byPath('stock-ledger')).toMatchObject({ module: 'inventory', readOnly: true });
  });
});
