import { catalogue, lookupOf, type Resource, referencedResources } from '@erp/contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';
import { parseReadShape } from './read';
import { getRecord } from './records-read';

/** SPEC §12: `select=`, `embed=` and `Prefer: count=exact` on list and get. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let headers: Record<string, string>;
let refs: Map<string, string[]>;
const byName = new Map(catalogue.map((r) => [r.name, r]));
const salesOrder = byName.get('sales_order')!;

/** A resource and everything it refers to, referenced ones first (catalogue order). */
function withDependencies(names: string[]): Resource[] {
  const wanted = new Set<string>();
  const visit = (name: string) => {
    if (wanted.has(name) || !byName.has(name)) return;
    wanted.add(name);
    for (const next of referencedResources(byName.get(name)!)) visit(next);
  };
  for (const name of names) visit(name);
  return catalogue.filter((r) => wanted.has(r.name));
}

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  headers = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  refs = await populate(
    portal,
    withDependencies(['sales_order']),
    { ...headers, 'content-type': 'application/json' },
    3,
  );
}, 120_000);
afterAll(() => portal.tdb.close());

const get = (path: string, extra: Record<string, string> = headers) =>
  portal.request(path, { headers: extra }).then(portal.json);
const orderIds = () => refs.get('sales_order')!;

describe('select', () => {
  it('returns only the named fields, in the order named, with id first unless placed', async () => {
    const list = await get('/api/v1/sales-orders?select=total_cents,number');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    for (const row of list.body.data)
      expect(Object.keys(row)).toEqual(['id', 'total_cents', 'number']);
    const placed = await get(`/api/v1/sales-orders/${orderIds()[0]}?select=number,id&select=lines`);
    expect(placed.status).toBe(200);
    expect(Object.keys(placed.body)).toEqual(['number', 'id', 'lines']);
    const whole = await get(`/api/v1/sales-orders/${orderIds()[0]}`);
    expect(placed.body).toEqual({
      id: whole.body.id,
      number: whole.body.number,
      lines: whole.body.lines,
    });
    expect(placed.headers.get('etag')).toBe(whole.headers.get('etag'));
  });

  it('keeps decimals exact and pages with a cursor on a field left out', async () => {
    const first = await get(
      '/api/v1/sales-orders?select=number&order=total_cents.desc&page_size=2',
    );
    expect(first.body.data.map((r: object) => Object.keys(r))).toEqual([
      ['id', 'number'],
      ['id', 'number'],
    ]);
    const next = await get(
      `/api/v1/sales-orders?select=number&order=total_cents.desc&page_size=2&cursor=${first.body.next_cursor}`,
    );
    expect(next.status).toBe(200);
    const whole = await get('/api/v1/sales-orders?order=total_cents.desc');
    expect([...first.body.data, ...next.body.data].map((r: { id: string }) => r.id)).toEqual(
      whole.body.data.map((r: { id: string }) => r.id),
    );
    const line = await get(`/api/v1/sales-orders/${orderIds()[0]}?select=lines`);
    expect(typeof line.body.lines[0].quantity).toBe('string');
  });

  it('refuses unknown names with requete_invalide naming each', async () => {
    for (const path of [
      '/api/v1/sales-orders?select=number,colour,size',
      `/api/v1/sales-orders/${orderIds()[0]}?select=number,colour,size`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(
        res.body.params.issues.map((i: { path: string; name: string }) => [i.path, i.name]),
      ).toEqual([
        ['select', 'colour'],
        ['select', 'size'],
      ]);
    }
    expect((await get('/api/v1/sales-orders?select=')).body.code).toBe('requete_invalide');
    expect((await get('/api/v1/sales-orders?select=tenant_id')).body.code).toBe('requete_invalide');
  });
});

describe('embed', () => {
  it('puts the referenced record inline under the name without _id, as its own get returns it', async () => {
    const list = await get('/api/v1/sales-orders?embed=customer');
    expect(list.status).toBe(200);
    for (const row of list.body.data) {
      const customer = await get(`/api/v1/customers/${row.customer_id}`);
      expect(row.customer).toEqual(customer.body);
    }
    const one = await get(`/api/v1/sales-orders/${orderIds()[1]}?embed=customer,warehouse`);
    expect(one.body.customer.id).toBe(one.body.customer_id);
    if (one.body.warehouse_id) expect(one.body.warehouse.id).toBe(one.body.warehouse_id);
    else expect(one.body.warehouse).toBeNull();
    const whole = await get(`/api/v1/sales-orders/${orderIds()[1]}`);
    const { customer: _, warehouse: __, ...rest } = one.body;
    expect(rest).toEqual(whole.body);
  });

  it('embeds null for a reference that is null, and comes with select', async () => {
    const order = await portal
      .post(
        '/api/v1/sales-orders',
        { ...sampleBody(salesOrder, 0, refs), quote_id: null },
        { ...headers, 'content-type': 'application/json' },
      )
      .then(portal.json);
    expect(order.status).toBe(201);
    const res = await get(
      `/api/v1/sales-orders/${order.body.id}?select=number&embed=quote,customer`,
    );
    expect(Object.keys(res.body)).toEqual(['id', 'number', 'quote', 'customer']);
    expect(res.body.quote).toBeNull();
    expect(res.body.customer.id).toBe(order.body.customer_id);
    refs.get('sales_order')!.push(order.body.id);
  });

  it('takes the place of a compatibility field of the same name', async () => {
    const customers = await get('/api/v1/customers?embed=customer_group');
    expect(customers.status).toBe(200);
    const withGroup = customers.body.data.find(
      (c: { customer_group_id: string | null }) => c.customer_group_id,
    );
    expect(withGroup).toBeDefined();
    expect(withGroup.customer_group.id).toBe(withGroup.customer_group_id);
    const plain = await get(`/api/v1/customers/${withGroup.id}`);
    expect(
      typeof plain.body.customer_group === 'string' || plain.body.customer_group === null,
    ).toBe(true);
  });

  it('refuses unknown names: not a reference, a user, an _id name, a second level', async () => {
    for (const name of [
      'colour',
      'customer_id',
      'salesperson.user',
      'customer.customer_group',
      'lines',
      'user',
    ]) {
      const res = await get(`/api/v1/sales-orders?embed=${name}`);
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: { issues: [{ location: 'query', path: 'embed', name }] },
      });
    }
    const lead = await get('/api/v1/leads?embed=owner');
    expect(lead.status, 'a reference to a user').toBe(400);
  });

  it('is refused when the tenant did not buy the embedded module (403 acces_refuse naming the embed)', async () => {
    const starter = await portal.provisionTenant('starter'); // sales and crm only
    const starterHeaders = session(
      (await portal.login(starter.adminEmail)).access_token,
      starter.slug,
    );
    for (const path of [
      '/api/v1/sales-orders?embed=warehouse',
      '/api/v1/sales-orders?embed=customer,warehouse',
      `/api/v1/sales-orders/${orderIds()[0]}?embed=warehouse`,
    ]) {
      const res = await get(path, starterHeaders);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({
        code: 'acces_refuse',
        params: { required: 'inventory:read', embed: 'warehouse' },
      });
    }
    expect((await get('/api/v1/sales-orders?embed=customer', starterHeaders)).status).toBe(200);
  });

  it("is refused when the API key's scope or the user's role lacks the embedded module's read right", async () => {
    const salesOnly = apiKey((await portal.createKey(tenant, ['sales:read'])).key, tenant.slug);
    const both = apiKey(
      (await portal.createKey(tenant, ['sales:read', 'crm:read'])).key,
      tenant.slug,
    );
    const reader = session((await portal.addUser(tenant, ['sales:reader'])).token, tenant.slug);
    for (const [who, caller] of [
      ['key', salesOnly],
      ['user', reader],
    ] as const) {
      for (const path of [
        '/api/v1/sales-orders?embed=customer',
        `/api/v1/sales-orders/${orderIds()[0]}?embed=customer`,
      ]) {
        const res = await get(path, caller);
        expect(res.status, `${who} ${path}`).toBe(403);
        expect(res.body).toMatchObject({
          code: 'acces_refuse',
          params: { required: 'crm:read', embed: 'customer' },
        });
      }
      expect((await get('/api/v1/sales-orders', caller)).status).toBe(200);
    }
    const allowed = await get('/api/v1/sales-orders?embed=customer', both);
    expect(allowed.status).toBe(200);
    expect(allowed.body.data[0].customer.id).toBe(allowed.body.data[0].customer_id);
  });

  it("never embeds another tenant's record, even when a reference is forged to name it", async () => {
    const other = await portal.provisionTenant('enterprise');
    const otherHeaders = session((await portal.login(other.adminEmail)).access_token, other.slug);
    const foreign = await portal
      .post(
        '/api/v1/customers',
        { ...sampleBody(byName.get('customer')!, 1, new Map()), name: 'Foreign Secret SARL' },
        { ...otherHeaders, 'content-type': 'application/json' },
      )
      .then(portal.json);
    expect(foreign.status).toBe(201);
    const victim = orderIds()[2]!;
    // The composite foreign key forbids this; the superuser switches its triggers off to forge it.
    const client = await portal.tdb.pool.connect();
    try {
      await client.query("SET session_replication_role = 'replica'");
      await client.query('UPDATE sales_orders SET customer_id = $1 WHERE id = $2', [
        foreign.body.id,
        victim,
      ]);
      await client.query("SET session_replication_role = 'origin'");
    } finally {
      client.release();
    }
    const one = await portal.request(`/api/v1/sales-orders/${victim}?embed=customer`, { headers });
    const text = await one.text();
    expect(one.status).toBe(200);
    expect(JSON.parse(text).customer).toBeNull();
    expect(text).not.toContain('Foreign Secret');
    const list = await portal.request('/api/v1/sales-orders?embed=customer&page_size=200', {
      headers,
    });
    const listText = await list.text();
    expect(
      JSON.parse(listText).data.find((r: { id: string }) => r.id === victim).customer,
    ).toBeNull();
    expect(listText).not.toContain('Foreign Secret');
    // Each wall on its own: the statement's tenant condition holds even without row-level
    // security (the superuser bypasses it).
    const superuser = await portal.tdb.pool.connect();
    try {
      const shape = parseReadShape(
        salesOrder,
        lookupOf(catalogue),
        { embed: ['customer'] },
        {
          rights: new Set(['crm:read']),
          modules: ['crm'],
        },
      );
      const record = await getRecord(superuser, salesOrder, tenant.id, victim, shape);
      expect(JSON.parse(record.json).customer).toBeNull();
    } finally {
      superuser.release();
    }
  });

  it('costs one statement for a whole page, whatever it embeds (no query per record)', async () => {
    const statements: string[] = [];
    const { tenantDb } = portal.deps;
    const run = tenantDb.run;
    tenantDb.run = (tenantId, work) =>
      run(tenantId, (client) =>
        work(
          new Proxy(client, {
            get(target, key, receiver) {
              if (key !== 'query') return Reflect.get(target, key, receiver);
              return (config: string | pg.QueryConfig, ...rest: unknown[]) => {
                statements.push(typeof config === 'string' ? config : config.text);
                return (target.query as (...a: unknown[]) => unknown)(config, ...rest);
              };
            },
          }),
        ),
      );
    try {
      const res = await get('/api/v1/sales-orders?embed=customer,warehouse,quote,salesperson');
      expect(res.body.data.length).toBeGreaterThanOrEqual(3);
      expect(statements).toHaveLength(1);
    } finally {
      tenantDb.run = run;
    }
  });
});

describe('Prefer: count=exact', () => {
  it('adds total (every page, same filters) and answers Preference-Applied', async () => {
    const all = (await get('/api/v1/sales-orders?page_size=200')).body.data as {
      customer_id: string;
    }[];
    const customerId = all[0]!.customer_id;
    const expected = all.filter((r) => r.customer_id === customerId).length;
    const res = await portal
      .request(`/api/v1/sales-orders?customer_id=eq.${customerId}&page_size=1&select=id`, {
        headers: { ...headers, prefer: 'return=minimal, count=exact' },
      })
      .then(portal.json);
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('count=exact');
    expect(res.body.total).toBe(expected);
    expect(res.body.data).toHaveLength(1);
    const everything = await portal
      .request('/api/v1/sales-orders?page_size=1', {
        headers: { ...headers, prefer: 'count=exact' },
      })
      .then(portal.json);
    expect(everything.body.total).toBe(all.length);
    const next = await portal
      .request(`/api/v1/sales-orders?page_size=1&cursor=${everything.body.next_cursor}`, {
        headers: { ...headers, prefer: 'count=exact' },
      })
      .then(portal.json);
    expect(next.body.total, 'the cursor does not change the total').toBe(all.length);
  });

  it('adds nothing without it, or for another preference', async () => {
    for (const prefer of [undefined, 'count=estimated', 'return=representation']) {
      const res = await portal
        .request('/api/v1/sales-orders', { headers: { ...headers, ...(prefer ? { prefer } : {}) } })
        .then(portal.json);
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('total');
      expect(res.headers.get('preference-applied')).toBeNull();
    }
  });
});
