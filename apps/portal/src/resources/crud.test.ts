import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';
import { insertRecord } from './records-write';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let headers: Record<string, string>;
let refs: Map<string, string[]>;
const salesOrder = catalogue.find((r) => r.name === 'sales_order')!;
const customer = catalogue.find((r) => r.name === 'customer')!;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  refs = await populate(portal, catalogue, headers, 2);
}, 180_000);
afterAll(() => portal.tdb.close());

const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
  portal.post(path, body, { ...headers, ...extra }).then(portal.json);
const patch = (path: string, body: unknown, extra: Record<string, string> = {}) =>
  portal
    .request(path, {
      method: 'PATCH',
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
    })
    .then(portal.json);
const count = async (sql: string, params: unknown[] = []) =>
  (await portal.tdb.pool.query(sql, params)).rows[0].n as number;

describe('creating', () => {
  it('numbers documents per tenant and year, computes totals and records the created event', async () => {
    const body = {
      ...sampleBody(salesOrder, 5, refs),
      lines: [{ description: 'Chaise', quantity: '3', unit_price_cents: 1999, tax_rate: '20' }],
    };
    const res = await post('/api/v1/sales-orders', body);
    expect(res.status).toBe(201);
    expect(res.body.number).toMatch(new RegExp(`^SO-${new Date().getUTCFullYear()}-\\d{5}$`));
    expect(res.body).toMatchObject({
      status: 'brouillon',
      subtotal_cents: 5997,
      tax_cents: 1199,
      total_cents: 7196,
    });
    expect(res.body.lines[0].quantity).toBe('3');
    expect(res.headers.get('etag')).toBe('"1"');
    expect(
      await count(
        "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'sales_order.created'",
        [res.body.id],
      ),
    ).toBe(1);
    const next = await post('/api/v1/sales-orders', body);
    expect(Number(next.body.number.slice(-5))).toBe(Number(res.body.number.slice(-5)) + 1);
  });

  it('validates bodies: unknown fields, wrong types and missing required fields name the path', async () => {
    const res = await post('/api/v1/customers', {
      ...sampleBody(customer, 1, refs),
      colour: 'blue',
      name: 42,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    const paths = res.body.params.issues.map((i: { path: string }) => i.path);
    expect(paths).toContain('name');
    expect(JSON.stringify(res.body.params.issues)).toContain('colour');
  });

  it('refuses a NUL character in text and JSON values with requete_invalide, writing nothing', async () => {
    const before = await count('SELECT count(*)::int AS n FROM customers');
    const inText = await post('/api/v1/customers', {
      ...sampleBody(customer, 1, refs),
      name: 'a\u0000b',
    });
    expect(inText.status).toBe(400);
    expect(inText.body.code).toBe('requete_invalide');
    const inLines = await post('/api/v1/sales-orders', {
      ...sampleBody(salesOrder, 1, refs),
      notes: 'x\u0000',
    });
    expect(inLines.status).toBe(400);
    expect(inLines.body.code).toBe('requete_invalide');
    expect(await count('SELECT count(*)::int AS n FROM customers')).toBe(before);
  });

  it("refuses a reference to another tenant's record (composite foreign key), writing nothing", async () => {
    const other = await portal.provisionTenant('enterprise');
    const otherHeaders = {
      ...session((await portal.login(other.adminEmail)).access_token, other.slug),
      'content-type': 'application/json',
    };
    const foreignCustomer = await portal
      .post('/api/v1/customers', sampleBody(customer, 0, new Map()), otherHeaders)
      .then(portal.json);
    expect(foreignCustomer.status).toBe(201);
    const before = await count('SELECT count(*)::int AS n FROM sales_orders');
    const res = await post('/api/v1/sales-orders', {
      ...sampleBody(salesOrder, 1, refs),
      customer_id: foreignCustomer.body.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.params.issues[0].path).toBe('customer_id');
    expect(await count('SELECT count(*)::int AS n FROM sales_orders')).toBe(before);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body, without acting twice', async () => {
    const body = sampleBody(customer, 7, refs);
    const first = await post('/api/v1/customers', body, { 'idempotency-key': 'k-1' });
    const second = await post('/api/v1/customers', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(
      await count('SELECT count(*)::int AS n FROM customers WHERE id = $1', [first.body.id]),
    ).toBe(1);
  });

  it('answers conflit for the same key with another body', async () => {
    await post('/api/v1/customers', sampleBody(customer, 8, refs), { 'idempotency-key': 'k-2' });
    const res = await post('/api/v1/customers', sampleBody(customer, 9, refs), {
      'idempotency-key': 'k-2',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'conflit',
      params: { reason: 'idempotency_key_reused' },
    });
  });

  it('acts once under concurrent duplicates', async () => {
    const body = sampleBody(customer, 10, refs);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('/api/v1/customers', body, { 'idempotency-key': 'k-concurrent' }),
      ),
    );
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  it('applies to actions: a retried confirm is replayed, not refused', async () => {
    const order = await post('/api/v1/sales-orders', sampleBody(salesOrder, 3, refs));
    const first = await post(
      `/api/v1/sales-orders/${order.body.id}/confirm`,
      {},
      { 'idempotency-key': 'confirm-1' },
    );
    const again = await post(
      `/api/v1/sales-orders/${order.body.id}/confirm`,
      {},
      { 'idempotency-key': 'confirm-1' },
    );
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM events WHERE resource_id = $1 AND type = 'sales_order.status_changed'",
        [order.body.id],
      ),
    ).toBe(1);
  });
});

describe('updating and deleting', () => {
  it('honours If-Match: the ETag read wins once, a stale one gets conflit', async () => {
    const created = await post('/api/v1/customers', sampleBody(customer, 11, refs));
    const path = `/api/v1/customers/${created.body.id}`;
    const ok = await patch(path, { name: 'Renamed' }, { 'if-match': created.headers.get('etag')! });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Renamed');
    expect(ok.headers.get('etag')).toBe('"2"');
    const stale = await patch(
      path,
      { name: 'Lost update' },
      { 'if-match': created.headers.get('etag')! },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'conflit',
      params: { reason: 'version_mismatch', current_etag: '"2"' },
    });
    expect((await portal.request(path, { headers }).then(portal.json)).body.name).toBe('Renamed');
    expect((await patch(path, { name: 'No precondition' })).status).toBe(200);
  });

  it('edits and deletes lifecycle records only in their editable states', async () => {
    const order = await post('/api/v1/sales-orders', sampleBody(salesOrder, 4, refs));
    const path = `/api/v1/sales-orders/${order.body.id}`;
    expect((await patch(path, { notes: 'draft edit' })).status).toBe(200);
    await post(`${path}/confirm`, {});
    const edit = await patch(path, { notes: 'too late' });
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({
      code: 'transition_invalide',
      params: { from: 'confirme', action: 'update' },
    });
    const del = await portal.request(path, { method: 'DELETE', headers }).then(portal.json);
    expect(del.body).toMatchObject({
      code: 'transition_invalide',
      params: { from: 'confirme', action: 'delete' },
    });
  });

  it('refuses to delete a record others refer to, and deletes a free one', async () => {
    const referenced = refs.get('customer')![0]!;
    const res = await portal
      .request(`/api/v1/customers/${referenced}`, { method: 'DELETE', headers })
      .then(portal.json);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflit', params: { reason: 'referenced' } });
    const free = await post('/api/v1/customers', sampleBody(customer, 12, refs));
    expect(
      (await portal.request(`/api/v1/customers/${free.body.id}`, { method: 'DELETE', headers }))
        .status,
    ).toBe(204);
    expect((await portal.request(`/api/v1/customers/${free.body.id}`, { headers })).status).toBe(
      404,
    );
  });
});

describe('transactions', () => {
  it('a rolled-back transaction leaves neither the change nor its event nor its history', async () => {
    const before = await count('SELECT count(*)::int AS n FROM events');
    const history = await count('SELECT count(*)::int AS n FROM record_history');
    const actor = { type: 'user', id: tenant.adminId } as const;
    const customers = await count('SELECT count(*)::int AS n FROM customers');
    await expect(
      portal.deps.tenantDb.transaction(tenant.id, async (client) => {
        await insertRecord(
          client,
          customer,
          tenant.id,
          sampleBody(customer, 13, refs) as Record<string, unknown>,
          actor,
        );
        await insertRecord(
          client,
          salesOrder,
          tenant.id,
          sampleBody(salesOrder, 13, refs) as Record<string, unknown>,
          actor,
        );
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await count('SELECT count(*)::int AS n FROM events')).toBe(before);
    expect(await count('SELECT count(*)::int AS n FROM record_history')).toBe(history);
    expect(await count('SELECT count(*)::int AS n FROM customers')).toBe(customers);
  });

  it('row-level security holds on its own: a query without a tenant filter sees only its tenant', async () => {
    const other = await portal.provisionTenant('enterprise');
    const otherHeaders = {
      ...session((await portal.login(other.adminEmail)).access_token, other.slug),
      'content-type': 'application/json',
    };
    expect(
      (await portal.post('/api/v1/customers', sampleBody(customer, 0, new Map()), otherHeaders))
        .status,
    ).toBe(201);
    const all = await count('SELECT count(DISTINCT tenant_id)::int AS n FROM customers');
    expect(all).toBeGreaterThanOrEqual(2);
    const seen = await portal.deps.tenantDb.transaction(
      tenant.id,
      async (client) => (await client.query('SELECT DISTINCT tenant_id FROM customers')).rows,
    );
    expect(seen).toEqual([{ tenant_id: tenant.id }]);
    const client = await portal.tdb.pool.connect();
    try {
      await client.query("BEGIN; SELECT set_config('role', 'erp_app', true)");
      expect((await client.query('SELECT count(*)::int AS n FROM customers')).rows[0].n).toBe(0);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});

describe('declared headers', () => {
  it('are validated as the route declares them: an overlong Idempotency-Key or Prefer is 400 naming it', async () => {
    const created = await post('/api/v1/sales-orders', sampleBody(salesOrder, 7, refs), {
      'idempotency-key': 'k'.repeat(256),
      'x-unrelated': 'k'.repeat(600),
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'header', path: 'idempotency-key' }] },
    });
    expect(created.body.params.issues).toHaveLength(1);
    const listed = await portal
      .request('/api/v1/sales-orders', { headers: { ...headers, prefer: 'x'.repeat(501) } })
      .then(portal.json);
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'header', path: 'prefer' }] },
    });
    const fine = await portal
      .request('/api/v1/sales-orders', { headers: { ...headers, prefer: 'count=exact' } })
      .then(portal.json);
    expect(fine.status).toBe(200);
    expect(fine.headers.get('preference-applied')).toBe('count=exact');
  });
});
