/**
 * An integrator's file against the sdk (`pnpm bench sdk`, type-check section): a client, a typed
 * create, a filtered and sorted list narrowed by `select`, a read by id. The bench copies
 * `packages/sdk/src` into a fresh project as `sdk/` and this file beside it, with
 * `@erp/sdk/<entry>` read as `./sdk/<entry>.js`, the import the sdk's README gives.
 */
import { createClient, gte, in_, order } from '@erp/sdk/sales';

const client = createClient({ baseUrl: 'https://acme.example.com', apiKey: 'k', tenantId: 'acme' });
const { data: created, error } = await client.post('/api/v1/sales-orders', {
  body: { customer_id: 'c', order_date: '2026-11-23', currency: 'EUR', lines: [] },
});
if (error) throw error;
const orders = await client.get('/api/v1/sales-orders', {
  query: {
    select: ['number', 'total_cents'],
    status: in_(['confirme', 'livre']),
    total_cents: [gte(10_000)],
    order: order('order_date', 'desc'),
  },
});
const one = await client.get('/api/v1/sales-orders/{id}', { path: { id: created.id } });
console.log(orders.data?.data[0]?.total_cents, one.data?.status);
