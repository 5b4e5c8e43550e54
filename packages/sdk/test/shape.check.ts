/**
 * Compile-time checks of `select` and `embed` (SPEC §12), run by `pnpm typecheck` (tsc), not by
 * vitest: an `expectTypeOf` that does not hold, or a `@ts-expect-error` line that compiles,
 * fails the type-check. They break if the narrowing stops narrowing.
 */
import { expectTypeOf } from 'vitest';
import { type components, createClient } from '../src/index';

type Schemas = components['schemas'];
const client = createClient({ baseUrl: 'https://portal.test', apiKey: 'k', tenantId: 'demo' });

export async function selectNarrowsAList() {
  const { data } = await client.get('/api/v1/sales-orders', {
    query: { select: ['number', 'total_cents'], page_size: 10 },
  });
  if (!data) return;
  expectTypeOf(data.data[0]!).toEqualTypeOf<{ id: string; number: string; total_cents: number }>();
  expectTypeOf(data.next_cursor).toEqualTypeOf<string | null>();
  expectTypeOf(data.total).toEqualTypeOf<number | undefined>();
  // @ts-expect-error status was not selected
  data.data[0]!.status;
}

export async function selectNarrowsAGet() {
  const { data } = await client.get('/api/v1/customers/{id}', {
    path: { id: 'x' },
    query: { select: ['name'] },
  });
  if (!data) return;
  expectTypeOf(data).toEqualTypeOf<{ id: string; name: string }>();
}

export async function withoutSelectTheWholeRecordWithoutEmbeds() {
  const { data } = await client.get('/api/v1/sales-orders/{id}', { path: { id: 'x' } });
  if (!data) return;
  expectTypeOf(data).toEqualTypeOf<Schemas['SalesOrder']>();
  // @ts-expect-error nothing embedded
  data.customer;
}

export async function embedAddsTheRecord() {
  const { data } = await client.get('/api/v1/sales-orders/{id}', {
    path: { id: 'x' },
    query: { select: ['number'], embed: ['customer', 'quote'] },
  });
  if (!data) return;
  // A required reference embeds its record; an optional one the record or null.
  expectTypeOf(data.customer).toEqualTypeOf<Schemas['Customer']>();
  expectTypeOf(data.quote).toEqualTypeOf<Schemas['Quote'] | null>();
  expectTypeOf(data.number).toEqualTypeOf<string>();
  // @ts-expect-error customer_id was not selected
  data.customer_id;
  // @ts-expect-error warehouse was not embedded
  data.warehouse;
}

export async function embedInPages() {
  for await (const order of client.paginate('/api/v1/sales-orders', {
    query: { embed: ['warehouse'] },
  })) {
    expectTypeOf(order.warehouse).toEqualTypeOf<Schemas['Warehouse'] | null>();
    expectTypeOf(order.status).toEqualTypeOf<Schemas['SalesOrder']['status']>();
    // @ts-expect-error customer was not embedded
    order.customer;
  }
  for await (const page of client.pages('/api/v1/customers', { query: { select: ['email'] } })) {
    if (page.data)
      expectTypeOf(page.data.data[0]!).toEqualTypeOf<{ id: string; email: string | null }>();
  }
}

export async function embedTakesTheCompatibilityFieldsPlace() {
  const plain = await client.get('/api/v1/customers/{id}', { path: { id: 'x' } });
  if (plain.data) expectTypeOf(plain.data.customer_group).toEqualTypeOf<string | null>();
  const embedded = await client.get('/api/v1/customers/{id}', {
    path: { id: 'x' },
    query: { embed: ['customer_group'] },
  });
  if (embedded.data)
    expectTypeOf(embedded.data.customer_group).toEqualTypeOf<Schemas['CustomerGroup'] | null>();
}

export async function unknownNamesDoNotCompile() {
  // @ts-expect-error not a field of sales orders
  await client.get('/api/v1/sales-orders', { query: { select: ['colour'] } });
  // @ts-expect-error not a reference of sales orders (a field, not an embeddable name)
  await client.get('/api/v1/sales-orders', { query: { embed: ['customer_id'] } });
}

export async function otherRoutesKeepTheirTypes() {
  const me = await client.get('/api/v1/me');
  if (me.data) expectTypeOf(me.data.rights).toEqualTypeOf<string[]>();
  const csv = await client.get('/api/v1/sales-orders/export', { query: { format: 'csv' } });
  if (csv.data) expectTypeOf(csv.data).toEqualTypeOf<string>();
}
