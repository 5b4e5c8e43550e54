import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../test/harness';
import { seedDemo } from './demo';
import { seedDemoRecords } from './demo-records';

/**
 * The demo's goods agree with their ledgers (SPEC §18), on the seed as `pnpm seed` makes it:
 * made by the flows (orders from quotes, deliveries and invoices from orders, receipts and bills
 * from purchase orders), so on hand, reservations and values are what the stock ledger says.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: string;
const query = async <T>(text: string) => (await portal.tdb.pool.query(text, [tenant])).rows as T[];

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  tenant = demo.tenantId;
  await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 12, [demo.adminId]);
}, 120_000);
afterAll(() => portal.tdb.close());

describe('demo goods (SPEC §18)', () => {
  it('each stock level is the sum of its stock ledger, in quantity and in value', async () => {
    const off = await query<Record<string, unknown>>(
      `SELECT s.product_id, s.location_id, s.on_hand, s.value_cents, l.quantity, l.value
         FROM stock_levels s
         LEFT JOIN (SELECT product_id, location_id, sum(quantity) AS quantity, sum(value_cents) AS value
                      FROM stock_ledger WHERE tenant_id = $1 GROUP BY 1, 2) l USING (product_id, location_id)
        WHERE s.tenant_id = $1 AND (s.on_hand <> coalesce(l.quantity, 0) OR s.value_cents <> coalesce(l.value, 0))`,
    );
    expect(off).toEqual([]);
    const [entries] = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stock_ledger WHERE tenant_id = $1',
    );
    expect(entries!.n).toBeGreaterThan(50);
  });

  it('the stock accounts equal the stock’s value', async () => {
    const [row] = await query<{ accounts: string; stock: string }>(
      `SELECT (SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM ledger_lines l
                 JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
                WHERE l.tenant_id = $1 AND a.sub_type = 'stock')::text AS accounts,
              (SELECT coalesce(sum(value_cents), 0) FROM stock_levels WHERE tenant_id = $1)::text AS stock`,
    );
    expect(row!.accounts).toBe(row!.stock);
    expect(BigInt(row!.stock)).toBeGreaterThan(0n);
  });

  it('reserved is what confirmed orders have left to ship of their stockable lines', async () => {
    const rows = await query<{ product_id: string; reserved: string; wanted: string }>(
      `WITH main AS (
         SELECT DISTINCT ON (warehouse_id) warehouse_id, id FROM stock_locations
          WHERE tenant_id = $1 AND usage = 'internal' AND status = 'actif' ORDER BY warehouse_id, code, id),
       wanted AS (
         SELECT (l->>'product_id')::uuid AS product_id, main.id AS location_id,
                sum((l->>'quantity')::numeric - coalesce((l->>'delivered_quantity')::numeric, 0)) AS qty
           FROM sales_orders o CROSS JOIN jsonb_array_elements(o.lines) l
           JOIN products p ON p.tenant_id = o.tenant_id AND p.id = (l->>'product_id')::uuid AND p.product_type = 'stockable'
           JOIN main ON main.warehouse_id = o.warehouse_id
          WHERE o.tenant_id = $1 AND o.status IN ('confirme', 'livre')
          GROUP BY 1, 2)
       SELECT s.product_id, s.reserved::text AS reserved, coalesce(w.qty, 0)::text AS wanted
         FROM stock_levels s FULL JOIN wanted w USING (product_id, location_id)
        WHERE s.tenant_id = $1 AND coalesce(s.reserved, 0) <> coalesce(w.qty, 0)`,
    );
    expect(rows).toEqual([]);
  });

  it('conversions counted on their sources: delivered, invoiced, received, billed within ordered', async () => {
    const lines = await query<{ doc: string; status: string; line: Record<string, string> }>(
      `SELECT 'sales_order' AS doc, status, l AS line FROM sales_orders, jsonb_array_elements(lines) l WHERE tenant_id = $1
       UNION ALL
       SELECT 'purchase_order', status, l FROM purchase_orders, jsonb_array_elements(lines) l WHERE tenant_id = $1`,
    );
    const counted = (key: string) => lines.filter((l) => Number(l.line[key] ?? 0) > 0).length;
    expect(counted('delivered_quantity')).toBeGreaterThan(0);
    expect(counted('invoiced_quantity')).toBeGreaterThan(0);
    expect(counted('received_quantity')).toBeGreaterThan(0);
    expect(counted('billed_quantity')).toBeGreaterThan(0);
    const statuses = new Set(lines.map((l) => `${l.doc}:${l.status}`));
    for (const s of ['sales_order:livre', 'sales_order:facture', 'purchase_order:recu'])
      expect(statuses, s).toContain(s);
  });
});
