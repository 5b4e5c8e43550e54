import { catalogue } from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { seedDemo } from '../demo';
import { seedDemoRecords } from '../demo-records';

/**
 * The demo's purchasing and inventory documents agree with what they refer to, on the seed
 * as `pnpm seed` makes it (12 records of each resource).
 */
type Row = Record<string, unknown> & { id: string };
type Line = Record<string, unknown>;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
const tables = new Map<string, Row[]>();
const rows = (resource: string) => tables.get(resource)!;
const byId = (resource: string, id: unknown) => rows(resource).find((r) => r.id === id);
const day = (value: unknown) => (value as Date).toISOString().slice(0, 10);

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 12, [demo.adminId]);
  for (const resource of catalogue) {
    const { rows: found } = await sql<Row>`
      SELECT * FROM ${sql.table(resource.table)} WHERE tenant_id = ${demo.tenantId} ORDER BY id
    `.execute(portal.tdb.db);
    tables.set(resource.name, found);
  }
}, 120_000);
afterAll(() => portal.tdb.close());

describe('demo purchasing', () => {
  it('receives each purchase order from its supplier, its products, no more than ordered', () => {
    const received = new Map<string, number>();
    for (const receipt of rows('goods_receipt')) {
      const order = byId('purchase_order', receipt.purchase_order_id)!;
      expect(receipt.supplier_id).toBe(order.supplier_id);
      expect(['envoye', 'recu']).toContain(order.status);
      expect(day(receipt.received_on) >= day(order.order_date)).toBe(true);
      for (const line of receipt.lines as Line[]) {
        // A receipt made from its order names each order line it receives (SPEC §18).
        const ordered = (order.lines as Line[]).find((l) =>
          line.source_line_id ? l.id === line.source_line_id : l.product_id === line.product_id,
        );
        expect(ordered, `${receipt.number}: ${line.product_id}`).toBeDefined();
        expect(ordered!.product_id).toBe(line.product_id);
        const key = `${order.id}/${String(line.source_line_id ?? line.product_id)}`;
        received.set(key, (received.get(key) ?? 0) + Number(line.quantity));
        expect(received.get(key)!).toBeLessThanOrEqual(Number(ordered!.quantity));
        if (line.lot_id) expect(byId('lot', line.lot_id)!.product_id).toBe(line.product_id);
      }
    }
  });

  it('orders what the accepted quotation or the blanket order says, from the same supplier', () => {
    for (const order of rows('purchase_order')) {
      const quotation = byId('supplier_quotation', order.supplier_quotation_id);
      if (quotation) {
        expect(quotation.status).toBe('accepte');
        expect(order.supplier_id).toBe(quotation.supplier_id);
        expect(order.subtotal_cents).toBe(quotation.subtotal_cents);
      }
      const agreement = byId('purchase_agreement', order.purchase_agreement_id);
      if (agreement) {
        expect(order.supplier_id).toBe(agreement.supplier_id);
        for (const line of order.lines as Line[]) {
          const agreed = (agreement.lines as Line[]).find((l) => l.product_id === line.product_id);
          expect(line.unit_price_cents).toBe(agreed!.unit_price_cents);
        }
      }
    }
  });

  it('quotes for the products of the request for quotation, from a supplier it asked', () => {
    for (const quotation of rows('supplier_quotation')) {
      const rfq = byId('request_for_quotation', quotation.request_for_quotation_id);
      if (!rfq) continue;
      const asked = (rfq.suppliers as Line[]).map((s) => s.supplier_id);
      expect(asked).toContain(quotation.supplier_id);
      expect((quotation.lines as Line[]).map((l) => l.product_id)).toEqual(
        (rfq.lines as Line[]).map((l) => l.product_id),
      );
    }
  });

  it('returns goods of the receipt, at the order price, to its supplier', () => {
    for (const ret of rows('purchase_return')) {
      const receipt = byId('goods_receipt', ret.goods_receipt_id)!;
      expect(ret.supplier_id).toBe(receipt.supplier_id);
      const order = byId('purchase_order', ret.purchase_order_id)!;
      for (const line of ret.lines as Line[]) {
        const got = (receipt.lines as Line[]).find((l) => l.product_id === line.product_id)!;
        expect(Number(line.quantity)).toBeLessThanOrEqual(Number(got.quantity));
        const ordered = (order.lines as Line[]).find((l) => l.product_id === line.product_id)!;
        expect(line.unit_price_cents).toBe(ordered.unit_price_cents);
      }
    }
  });

  it('scores each evaluation as the weighted mean of its criteria', () => {
    for (const evaluation of rows('supplier_evaluation')) {
      const scores = evaluation.scores as Line[];
      const weights = scores.reduce((s, l) => s + Number(l.weight), 0);
      const mean = scores.reduce((s, l) => s + Number(l.weight) * Number(l.score), 0) / weights;
      expect(Number(evaluation.total_score)).toBeCloseTo(mean, 1);
      const card = byId('supplier_scorecard', evaluation.supplier_scorecard_id)!;
      expect(evaluation.supplier_id).toBe(card.supplier_id);
    }
  });
});

describe('demo inventory', () => {
  it('keeps each location in its parent’s warehouse', () => {
    for (const location of rows('stock_location')) {
      const parent = byId('stock_location', location.parent_id);
      if (parent) expect(location.warehouse_id).toBe(parent.warehouse_id);
      if (location.usage !== 'internal') expect(location.warehouse_id).toBeNull();
    }
  });

  it('moves stock between two locations, receipts into their receipt’s warehouse', () => {
    for (const move of rows('stock_move')) {
      expect(move.from_location_id).not.toBe(move.to_location_id);
      const receipt = byId('goods_receipt', move.goods_receipt_id);
      if (receipt) {
        expect(byId('stock_location', move.from_location_id)!.usage).toBe('supplier');
        expect(byId('stock_location', move.to_location_id)!.warehouse_id).toBe(
          receipt.warehouse_id,
        );
      }
      const lot = byId('lot', move.lot_id);
      if (lot) expect(lot.product_id).toBe(move.product_id);
      const serial = byId('serial_number', move.serial_number_id);
      if (serial) expect(serial.product_id).toBe(move.product_id);
    }
  });

  it('counts nothing in a draft count, everything in a validated one; adjustments book the differences', () => {
    for (const count of rows('stock_count')) {
      const counted = (count.lines as Line[]).filter((l) => l.counted_quantity !== null);
      if (count.status === 'brouillon') expect(counted).toEqual([]);
      if (count.status === 'valide') expect(counted).toHaveLength((count.lines as Line[]).length);
    }
    for (const adjustment of rows('stock_adjustment')) {
      const count = byId('stock_count', adjustment.stock_count_id);
      if (!count) continue;
      expect(adjustment.warehouse_id).toBe(count.warehouse_id);
      for (const line of adjustment.lines as Line[]) {
        const counted = (count.lines as Line[]).find((l) => l.product_id === line.product_id)!;
        expect(Number(line.quantity)).toBe(
          Number(counted.counted_quantity) - Number(counted.expected_quantity),
        );
      }
    }
  });

  it('dates lots in order and tracks lots and serial numbers on products that need them', () => {
    for (const lot of rows('lot')) {
      expect(byId('product', lot.product_id)!.tracking).toBe('lot');
      if (lot.expiry_date) expect(day(lot.expiry_date) > day(lot.manufacturing_date)).toBe(true);
    }
    for (const serial of rows('serial_number'))
      expect(byId('product', serial.product_id)!.tracking).toBe('serial');
  });

  it('makes each variant of its product’s attributes, one value per attribute', () => {
    for (const variant of rows('product_variant')) {
      const values = variant.attribute_values as Line[];
      expect(new Set(values.map((v) => v.attribute_id)).size).toBe(values.length);
      for (const v of values)
        expect(byId('product_attribute_value', v.attribute_value_id)!.attribute_id).toBe(
          v.attribute_id,
        );
    }
  });
});
