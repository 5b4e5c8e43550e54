/**
 * Compile-time checks, run by `pnpm typecheck` (tsc), not by vitest: each `@ts-expect-error`
 * fails the type-check if the line below it compiles.
 */
import { expectTypeOf } from 'vitest';
import {
  type ApiError,
  batch,
  createClient,
  eq,
  gte,
  history,
  in_,
  type ListQuery,
  lt,
  op,
  order,
  ref,
  type routes,
  type WebhookEvent,
} from '../src/index';
import type { Success } from '../src/types';

const client = createClient({ baseUrl: 'https://portal.test', apiKey: 'k', tenantId: 'demo' });

export async function checks() {
  // Settings → Users invites (SPEC §3): nobody sets another person's password.
  await client.post('/api/v1/settings/users', {
    body: { email: 'a@b.c', name: 'A', roles: ['sales:reader'] },
  });
  await client.post('/api/v1/settings/users', {
    // @ts-expect-error an invitation takes no password
    body: { email: 'a@b.c', name: 'A', roles: ['sales:reader'], password: 'chosen for them' },
  });
  // @ts-expect-error a member's roles change, nothing else of the account
  await client.patch('/api/v1/settings/users/{id}', { path: { id: 'x' }, body: { name: 'B' } });
  await client.get('/api/v1/sales-orders', {
    query: {
      status: in_(['brouillon', 'confirme']),
      total_cents: [gte(100), lt(500)],
      // @ts-expect-error customer_id is a reference: no range operators
      customer_id: gte('x'),
      order: order('total_cents', 'desc'),
    },
  });
  // @ts-expect-error not a field of sales orders
  await client.get('/api/v1/sales-orders', { query: { colour: eq('red') } });
  // @ts-expect-error shipping_city is filterable but not sortable
  await client.get('/api/v1/sales-orders', { query: { order: order('shipping_city') } });
  // @ts-expect-error a path parameter is required
  await client.get('/api/v1/sales-orders/{id}');
  // @ts-expect-error no PUT on this path
  await client.put('/api/v1/sales-orders');

  const { data, error } = await client.get('/api/v1/sales-orders/{id}', { path: { id: 'x' } });
  if (error) {
    const code: ApiError['code'] = error.code;
    // @ts-expect-error codes come from the contract's catalogue and the client's own
    const wrong: typeof code = 'not_a_code';
    return wrong;
  }
  const status: 'brouillon' | 'confirme' | 'livre' | 'facture' | 'annule' = data.status;

  const query: ListQuery<'/api/v1/sales-orders'> = { status: eq('confirme'), page_size: 10 };
  for await (const order of client.paginate('/api/v1/sales-orders', { query })) {
    const total: number = order.total_cents;
    return total;
  }
  // @ts-expect-error a single record is not a list
  client.paginate('/api/v1/sales-orders/{id}');
  return status;
}

export async function historyChecks() {
  for await (const version of history(client, '/api/v1/sales-orders/{id}/history', 'x')) {
    const action: string = version.action;
    const who: 'user' | 'api_key' = version.actor.type;
    // Changes carry the record's own field types.
    const status: ['brouillon' | 'confirme' | 'livre' | 'facture' | 'annule' | null, unknown] =
      version.changes.status!;
    const total: number | null = version.changes.total_cents![1];
    // @ts-expect-error not a field of sales orders
    version.changes.colour;
    return [action, who, status, total];
  }
  // @ts-expect-error a list, not a record's history
  history(client, '/api/v1/sales-orders', 'x');
}

export function narrow(event: WebhookEvent) {
  if (event.type === 'sales_order.created') return event.data.object.number;
  if (event.type === 'webhook.test') return event.data.message;
  return event.id;
}

export async function batchChecks() {
  const { data, error } = await batch(client, [
    op.post('/api/v1/customers', {
      body: { name: 'Müller GmbH', customer_type: 'company', active: true },
    }),
    op.post('/api/v1/sales-orders', {
      body: { customer_id: ref(0, 'id'), order_date: '2026-03-05', currency: 'EUR', lines: [] },
    }),
    op.post('/api/v1/sales-orders/{id}/confirm', { path: { id: ref(1, 'id') } }),
    op.get('/api/v1/sales-orders', { query: { customer_id: eq(ref(0, 'id')) } }),
    op.patch('/api/v1/customers/{id}', { path: { id: ref(0, 'id') }, body: {}, ifMatch: '"1"' }),
    op.delete('/api/v1/customers/{id}', { path: { id: 'x' } }),
  ]);
  if (error) return error.params.index;
  const status: 'brouillon' | 'confirme' | 'livre' | 'facture' | 'annule' =
    data.results[2].body.status;
  const rows: number = data.results[3].body.data.length;
  const deleted: null = data.results[5].body;
  // @ts-expect-error a customer has no status
  data.results[0].body.status;
  // @ts-expect-error there are six results
  data.results[6];
  // @ts-expect-error settings are not business resources: a batch refuses them
  op.post('/api/v1/settings/users', { body: { email: 'a@b.c', name: 'A', roles: [] } });
  // @ts-expect-error bodies are checked against the route
  op.post('/api/v1/customers', { body: { colour: 'red' } });
  const body = { name: 'A', customer_type: 'company', active: true } as const;
  // @ts-expect-error If-Match is a PATCH's
  op.post('/api/v1/customers', { body, ifMatch: '"1"' });
  // @ts-expect-error the path parameter is required
  op.get('/api/v1/customers/{id}');
  return [status, rows, deleted];
}

// `routes['list']` is computed by codegen from the document; it must hold exactly the GET paths
// whose answer is a page, as the type-level definition it replaced would find them (less the
// GETs that answer nothing to read, a redirect, which that definition let through as `never`).
type PageShaped = {
  [P in keyof routes['get']]: [Success<routes['get'][P]>] extends [never]
    ? never
    : Success<routes['get'][P]> extends { data: unknown[]; next_cursor: string | null }
      ? P
      : never;
}[keyof routes['get']];
expectTypeOf<keyof routes['list']>().toEqualTypeOf<PageShaped>();
