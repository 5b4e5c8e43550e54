import type { BatchOperation } from '@erp/contract';
import type { createTestPortal } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;

/** `POST /api/v1/batch` with these operations and headers, its answer read as JSON. */
export function batchOf(portal: Portal) {
  return (operations: BatchOperation[], headers: Record<string, string>) =>
    portal.post('/api/v1/batch', { operations }, headers).then(portal.json);
}

/** A customer's body for a create (`n` makes its name unique). */
export const customerBody = (n: number | string) => ({
  name: `Batch customer ${n}`,
  customer_type: 'company',
  active: true,
});

/** A sales order's body for a create, for the customer `customerId` (a reference or an id). */
export const salesOrderBody = (customerId: string, extra: Record<string, unknown> = {}) => ({
  customer_id: customerId,
  order_date: '2026-03-05',
  currency: 'EUR',
  lines: [{ description: 'Chaise', quantity: '2', unit_price_cents: 1500, tax_rate: '20' }],
  ...extra,
});

/** A quote's body for a create. */
export const quoteBody = (customerId: string) => ({
  customer_id: customerId,
  quote_date: '2026-03-02',
  currency: 'EUR',
  lines: [{ description: 'Table', quantity: '1', unit_price_cents: 9900, tax_rate: '20' }],
});

/** One row count of a query run as the database owner (row-level security does not apply). */
export async function countOf(portal: Portal, sql: string, params: unknown[] = []) {
  const { rows } = await portal.tdb.pool.query<{ n: number }>(sql, params);
  return rows[0]!.n;
}

/** What a batch can leave behind in a tenant: its records, its events (those an enabled subscription wants: the webhook outbox's) and queued jobs. */
export async function footprint(portal: Portal, tenantId: string) {
  const [customers, orders, quotes, events, watched, jobs] = await Promise.all([
    countOf(portal, 'SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1', [tenantId]),
    countOf(portal, 'SELECT count(*)::int AS n FROM sales_orders WHERE tenant_id = $1', [tenantId]),
    countOf(portal, 'SELECT count(*)::int AS n FROM quotes WHERE tenant_id = $1', [tenantId]),
    countOf(portal, 'SELECT count(*)::int AS n FROM events WHERE tenant_id = $1', [tenantId]),
    // The events an enabled subscription wants: what the worker's outbox drain will deliver.
    countOf(
      portal,
      `SELECT count(*)::int AS n FROM events e WHERE e.tenant_id = $1 AND EXISTS (
         SELECT 1 FROM webhook_subscriptions s
         WHERE s.tenant_id = e.tenant_id AND s.enabled AND e.type = ANY (s.events))`,
      [tenantId],
    ),
    countOf(portal, 'SELECT count(*)::int AS n FROM graphile_worker._private_jobs'),
  ]);
  return { customers, orders, quotes, events, watched, jobs };
}
