/**
 * Compile-time checks of the module entries (`src/<module>.ts`), run by `pnpm typecheck` (tsc):
 * a module's client keeps the typed filters, `select` and `embed`, required parameters and
 * bodies of the whole entry, refuses the paths of other modules, and clients of several
 * modules type every path of each.
 */
import { expectTypeOf } from 'vitest';
import {
  createClient as accountingClient,
  type components,
  importEInvoice,
} from '../src/accounting';
import type { routes as CrmRoutes } from '../src/crm';
import { type ListQuery, createClient as platformClient } from '../src/platform';
import {
  batch,
  createClient,
  eq,
  gte,
  history,
  type Item,
  in_,
  lt,
  op,
  order,
  ref,
  type components as SalesComponents,
} from '../src/sales';

type Schemas = SalesComponents['schemas'];
const options = { baseUrl: 'https://portal.test', apiKey: 'k', tenantId: 'demo' };
const sales = createClient(options);

export async function filtersAndOrder() {
  await sales.get('/api/v1/sales-orders', {
    query: {
      status: in_(['brouillon', 'confirme']),
      total_cents: [gte(100), lt(500)],
      // @ts-expect-error customer_id is a reference: no range operators
      customer_id: gte('x'),
      order: order('total_cents', 'desc'),
    },
  });
  // @ts-expect-error not a field of sales orders
  await sales.get('/api/v1/sales-orders', { query: { colour: eq('red') } });
  // @ts-expect-error shipping_city is filterable but not sortable
  await sales.get('/api/v1/sales-orders', { query: { order: order('shipping_city') } });
  // @ts-expect-error a path parameter is required
  await sales.get('/api/v1/sales-orders/{id}');
  // @ts-expect-error no PUT on this path
  await sales.put('/api/v1/sales-orders');
  // @ts-expect-error customers are the crm module's: not in the sales entry
  await sales.get('/api/v1/customers');
  await sales.post('/api/v1/sales-orders', {
    // @ts-expect-error bodies are checked against the route
    body: { colour: 'red' },
  });
}

export async function selectAndEmbed() {
  const { data } = await sales.get('/api/v1/sales-orders', {
    query: { select: ['number', 'total_cents'], page_size: 10 },
  });
  if (data)
    expectTypeOf(data.data[0]!).toEqualTypeOf<{
      id: string;
      number: string;
      total_cents: number;
    }>();
  const one = await sales.get('/api/v1/sales-orders/{id}', {
    path: { id: 'x' },
    query: { select: ['number'], embed: ['customer', 'quote'] },
  });
  if (one.data) {
    expectTypeOf(one.data.customer).toEqualTypeOf<Schemas['Customer']>();
    expectTypeOf(one.data.quote).toEqualTypeOf<Schemas['Quote'] | null>();
    // @ts-expect-error customer_id was not selected
    one.data.customer_id;
  }
  const whole = await sales.get('/api/v1/sales-orders/{id}', { path: { id: 'x' } });
  if (whole.data) expectTypeOf(whole.data).toEqualTypeOf<Schemas['SalesOrder']>();
  // @ts-expect-error not a field of sales orders
  await sales.get('/api/v1/sales-orders', { query: { select: ['colour'] } });
  // @ts-expect-error not a reference of sales orders
  await sales.get('/api/v1/sales-orders', { query: { embed: ['customer_id'] } });
  for await (const row of sales.paginate('/api/v1/sales-orders', {
    query: { embed: ['warehouse'] },
  }))
    expectTypeOf(row.warehouse).toEqualTypeOf<Schemas['Warehouse'] | null>();
  expectTypeOf<Item<'/api/v1/sales-orders'>['number']>().toEqualTypeOf<string>();
  // @ts-expect-error a single record is not a list
  sales.paginate('/api/v1/sales-orders/{id}');
}

export async function helpers() {
  for await (const version of history(sales, '/api/v1/sales-orders/{id}/history', 'x')) {
    const total: number | null = version.changes.total_cents![1];
    // @ts-expect-error not a field of sales orders
    version.changes.colour;
    return total;
  }
  const { data } = await batch(sales, [
    op.post('/api/v1/sales-orders', {
      body: { customer_id: 'c', order_date: '2026-03-05', currency: 'EUR', lines: [] },
    }),
    op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ref(0, 'id') } }),
  ]);
  if (data)
    expectTypeOf(data.results[1].body.status).toEqualTypeOf<Schemas['SalesOrder']['status']>();
  const accounting = accountingClient(options);
  const imported = await importEInvoice(accounting, '<Invoice/>');
  if (imported.type === 'debit_note')
    expectTypeOf(imported.record).toEqualTypeOf<components['schemas']['DebitNote']>();
  const platform = platformClient(options);
  const me = await platform.get('/api/v1/me');
  if (me.data) expectTypeOf(me.data.rights).toEqualTypeOf<string[]>();
  const events: ListQuery<'/api/v1/events'> = { page_size: 10 };
  return events;
}

export async function severalModules() {
  const both = createClient<import('../src/sales').routes & CrmRoutes>(options);
  const customer = await both.post('/api/v1/customers', {
    body: { name: 'Müller GmbH', customer_type: 'company', active: true },
  });
  if (customer.error) return;
  const order = await both.post('/api/v1/sales-orders', {
    body: { customer_id: customer.data.id, order_date: '2026-03-05', currency: 'EUR', lines: [] },
  });
  if (order.data) expectTypeOf(order.data.customer_id).toEqualTypeOf<string>();
  // @ts-expect-error employees are the hr module's
  await both.get('/api/v1/employees');
}
