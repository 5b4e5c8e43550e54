import type { BatchOperation } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchOf,
  customerBody,
  footprint,
  quoteBody,
  salesOrderBody,
} from '../../test/batch-harness';
import { apiKey, createTestPortal, session } from '../../test/harness';

/** Rights, rate limit, Idempotency-Key and concurrency: what a batch counts and locks. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;
let batch: ReturnType<typeof batchOf>;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  batch = batchOf(portal);
}, 120_000);
afterAll(() => portal.tdb.close());

const createCustomer = (n: number | string): BatchOperation => ({
  method: 'POST',
  path: '/api/v1/customers',
  body: customerBody(n),
});
const createOrder = (customer: string): BatchOperation => ({
  method: 'POST',
  path: '/api/v1/sales-orders',
  body: salesOrderBody(customer),
});
const listCustomers: BatchOperation = { method: 'GET', path: '/api/v1/customers?page_size=1' };

describe('rights', () => {
  it('an operation on a module the key lacks is 403 with its index, checked before anything runs', async () => {
    const key = await portal.createKey(tenant, ['crm:write']);
    const headers = apiKey(key.key, tenant.slug);
    const before = await footprint(portal, tenant.id);
    const res = await batch([createCustomer('crm'), createOrder('{{0.id}}')], headers);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'acces_refuse',
      params: { index: 1, required: 'sales:write' },
    });
    expect(await footprint(portal, tenant.id)).toEqual(before);
    // What it holds, it may do.
    expect((await batch([createCustomer('crm'), listCustomers], headers)).status).toBe(200);
  });

  it('a read’s select and embed are checked as alone: an embed without its module’s read right is 403 with the index', async () => {
    const ok = await batch(
      [
        createCustomer('embed'),
        createOrder('{{0.id}}'),
        { method: 'GET', path: '/api/v1/sales-orders/{{1.id}}?select=number&embed=customer' },
        { method: 'GET', path: '/api/v1/sales-orders?page_size=1&select=number' },
      ],
      admin,
    );
    expect(ok.status).toBe(200);
    const [customer, , read, list] = ok.body.results;
    expect(Object.keys(read.body)).toEqual(['id', 'number', 'customer']);
    expect(read.body.customer).toEqual(customer.body);
    expect(Object.keys(list.body.data[0])).toEqual(['id', 'number']);

    // sales:write (and with it sales:read), not crm:read.
    const key = await portal.createKey(tenant, ['sales:write']);
    const headers = apiKey(key.key, tenant.slug);
    const before = await footprint(portal, tenant.id);
    const refused = await batch(
      [
        createOrder(customer.body.id),
        { method: 'GET', path: '/api/v1/sales-orders/{{0.id}}?embed=customer' },
      ],
      headers,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'acces_refuse',
      params: { index: 1, required: 'crm:read', embed: 'customer' },
    });
    expect(await footprint(portal, tenant.id)).toEqual(before);
    const unknown = await batch(
      [{ method: 'GET', path: '/api/v1/sales-orders?select=nope' }],
      headers,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'requete_invalide', params: { index: 0 } });
  });

  it('a reader cannot write through a batch', async () => {
    const reader = await portal.addUser(tenant, ['crm:reader']);
    const res = await batch(
      [listCustomers, createCustomer('reader')],
      session(reader.token, tenant.slug),
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'acces_refuse',
      params: { index: 1, required: 'crm:write' },
    });
  });

  it('a module the tenant did not buy is module_non_souscrit with the index', async () => {
    const starter = await portal.provisionTenant('starter');
    const headers = session((await portal.login(starter.adminEmail)).access_token, starter.slug);
    const res = await batch(
      [createCustomer('starter'), { method: 'GET', path: '/api/v1/employees' }],
      headers,
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'module_non_souscrit',
      params: { index: 1, module: 'hr' },
    });
  });

  it('runs in the batch request’s tenant only: another tenant’s record is not found', async () => {
    const other = await portal.provisionTenant('enterprise');
    const otherAdmin = session((await portal.login(other.adminEmail)).access_token, other.slug);
    const theirs = (await batch([createCustomer('theirs')], otherAdmin)).body.results[0].body.id;
    const res = await batch([{ method: 'GET', path: `/api/v1/customers/${theirs}` }], admin);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'introuvable', params: { index: 0 } });
    const referring = await batch([createOrder(theirs)], admin);
    expect(referring.status).toBe(400);
    expect(referring.body.params).toMatchObject({ index: 0 });
  });
});

describe('rate limit', () => {
  const units = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

  it('counts every operation: a batch of 100 takes 100 units, a batch that does not fit is refused whole', async () => {
    const key = await portal.createKey(tenant, ['crm:write'], 30, 120);
    const headers = apiKey(key.key, tenant.slug);
    const hundred = await batch(
      Array.from({ length: 100 }, () => listCustomers),
      headers,
    );
    expect(hundred.status).toBe(200);
    expect(units(hundred)).toBe(20);

    const before = await footprint(portal, tenant.id);
    // 21 operations: 1 unit at authentication leaves 19, short of the 20 more it needs.
    const tooMany = await batch(
      Array.from({ length: 21 }, (_, n) => createCustomer(`limit-${n}`)),
      headers,
    );
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({ code: 'limite_depassee', params: { operations: 21 } });
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(tooMany.headers.get('retry-after'))).toBeLessThanOrEqual(61);
    expect(await footprint(portal, tenant.id)).toEqual(before);
    // The refusal spent only its authentication's unit: 19 are left, a batch of 19 fits exactly.
    const fits = await batch(
      Array.from({ length: 19 }, () => listCustomers),
      headers,
    );
    expect(fits.status).toBe(200);
    expect(units(fits)).toBe(0);
    const single = await portal.request('/api/v1/customers', { headers }).then(portal.json);
    expect(single.status).toBe(429);
  });

  it('refuses a batch larger than the key’s whole minute, without a Retry-After to wait for', async () => {
    const key = await portal.createKey(tenant, ['crm:write'], 30, 10);
    const res = await batch(
      Array.from({ length: 11 }, () => listCustomers),
      apiKey(key.key, tenant.slug),
    );
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({
      code: 'limite_depassee',
      params: { reason: 'batch_over_limit', operations: 11, limit: 10 },
    });
    expect(res.headers.get('retry-after')).toBeNull();
  });
});

describe('Idempotency-Key', () => {
  it('applies to the whole batch: the same key and body replay the answer, another body is conflit', async () => {
    const key = { 'idempotency-key': `batch-${Date.now()}` };
    const operations = [createCustomer('idem'), createOrder('{{0.id}}')];
    const before = await footprint(portal, tenant.id);
    const first = await batch(operations, { ...admin, ...key });
    expect(first.status).toBe(200);
    const again = await batch(operations, { ...admin, ...key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await footprint(portal, tenant.id)).toMatchObject({
      customers: before.customers + 1,
      orders: before.orders + 1,
    });
    const other = await batch([createCustomer('idem-other')], { ...admin, ...key });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      code: 'conflit',
      params: { reason: 'idempotency_key_reused' },
    });
  });

  it('a failed batch stores nothing: retried with its key, it runs again', async () => {
    const key = { 'idempotency-key': `batch-failed-${Date.now()}` };
    const operations = [
      createCustomer('retry'),
      { method: 'GET', path: '/api/v1/customers/{{0.id}}' } as BatchOperation,
    ];
    const failing = [createCustomer('retry'), createOrder('00000000-0000-4000-8000-000000000000')];
    expect((await batch(failing, { ...admin, ...key })).status).toBe(400);
    const res = await batch(operations, { ...admin, ...key });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key belongs to its principal (SPEC §16)', () => {
  const embedRead = (order: string): BatchOperation[] => [
    { method: 'GET', path: `/api/v1/sales-orders/${order}?embed=customer` },
  ];

  it('another principal’s same key and body is handled on its own: a key without crm:read is refused the embed, not replayed the answer', async () => {
    const [customer] = (await batch([createCustomer('principal')], admin)).body.results;
    const [order] = (await batch([createOrder(customer.body.id)], admin)).body.results;
    const key = { 'idempotency-key': `batch-principal-${Date.now()}` };
    const first = await batch(embedRead(order.body.id), { ...admin, ...key });
    expect(first.status).toBe(200);
    expect(first.body.results[0].body.customer.id).toBe(customer.body.id);
    // sales:write, not crm:read: alone it may not embed the customer.
    const weaker = apiKey((await portal.createKey(tenant, ['sales:write'])).key, tenant.slug);
    const res = await batch(embedRead(order.body.id), { ...weaker, ...key });
    expect(res.status).toBe(403);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body).toMatchObject({
      code: 'acces_refuse',
      params: { index: 0, required: 'crm:read', embed: 'customer' },
    });
    // The writes of another principal with the same key run, and answer their own records.
    const created = await batch([createCustomer('principal-2')], {
      ...apiKey((await portal.createKey(tenant, ['crm:write'])).key, tenant.slug),
      ...key,
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a replay checks the rights again: the same key that lost crm:read is refused the stored embed', async () => {
    const [customer] = (await batch([createCustomer('recheck')], admin)).body.results;
    const [order] = (await batch([createOrder(customer.body.id)], admin)).body.results;
    const created = await portal.createKey(tenant, ['sales:write', 'crm:read']);
    const headers = {
      ...apiKey(created.key, tenant.slug),
      'idempotency-key': `batch-recheck-${Date.now()}`,
    };
    const first = await batch(embedRead(order.body.id), headers);
    expect(first.status).toBe(200);
    const again = await batch(embedRead(order.body.id), headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await portal.tdb.pool.query(`UPDATE api_keys SET scopes = '{sales:write}' WHERE id = $1`, [
      created.id,
    ]);
    const refused = await batch(embedRead(order.body.id), headers);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'acces_refuse',
      params: { index: 0, required: 'crm:read', embed: 'customer' },
    });
  });
});

describe('concurrency', () => {
  it('batches numbering documents in opposite orders run one after the other, never deadlocking', async () => {
    const [customer] = (await batch([createCustomer('concurrent')], admin)).body.results.map(
      (r: { body: { id: string } }) => r.body.id,
    );
    const order: BatchOperation = {
      method: 'POST',
      path: '/api/v1/sales-orders',
      body: salesOrderBody(customer),
    };
    const quote: BatchOperation = {
      method: 'POST',
      path: '/api/v1/quotes',
      body: quoteBody(customer),
    };
    // Each pair takes the two counters (SO, QT) in opposite orders, with work in between.
    const pairs = 6;
    const runs = await Promise.all(
      Array.from({ length: pairs }, () => [
        batch([order, listCustomers, quote], admin),
        batch([quote, listCustomers, order], admin),
      ]).flat(),
    );
    expect(runs.map((r) => `${r.status} ${r.body.code ?? ''}`)).toEqual(
      Array(2 * pairs).fill('200 '),
    );
    const numbers = (prefix: string) =>
      runs
        .flatMap((r) => r.body.results.map((x: { body: { number?: string } }) => x.body.number))
        .filter((n: string | undefined) => n?.startsWith(prefix))
        .map((n: string) => Number(n.slice(-5)))
        .sort((a: number, b: number) => a - b);
    for (const prefix of ['SO', 'QT']) {
      const taken = numbers(prefix);
      expect(taken).toHaveLength(2 * pairs);
      // Consecutive: no number lost, none given twice.
      expect(taken).toEqual(taken.map((_: number, i: number) => taken[0]! + i));
    }
  });
});
