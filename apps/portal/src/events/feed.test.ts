import { randomUUID } from 'node:crypto';
import { catalogue, type Resource } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { insertRecord } from '../resources';

/** Who the engine's history names for these writes (an API key nobody reads back here). */
const WRITER = { type: 'api_key', id: randomUUID() } as const;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;
const byName = (name: string) => catalogue.find((r) => r.name === name)!;
const customer = byName('customer'); // crm
const lead = byName('lead'); // crm, with a lifecycle
const product = byName('product'); // inventory
let n = 0;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  admin = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
}, 180_000);
afterAll(() => portal.tdb.close());

async function create(resource: Resource, headers = admin) {
  const res = await portal
    .post(`/api/v1/${resource.path}`, sampleBody(resource, n++, new Map()), headers)
    .then(portal.json);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

function feed(query: string, headers = admin) {
  return portal.request(`/api/v1/events${query}`, { headers }).then(portal.json);
}

interface Item {
  id: string;
  sequence: number;
  type: string;
  created_at: string;
  tenant_id: string;
  data: { object: { id: string }; action?: string; previous_status?: string };
}

/** Follows next_cursor from `after` until caught up; every page's cursor must be a string. */
async function drain(query: string, headers = admin, after?: string) {
  const items: Item[] = [];
  let cursor = after;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await feed(`?${cursor === undefined ? '' : `after=${cursor}&`}${query}`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(typeof res.body.next_cursor).toBe('string');
    items.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return { items, cursor: cursor! };
  }
  throw new Error('the feed never caught up');
}

describe('GET /api/v1/events', () => {
  it('serves every change oldest first, as a webhook body plus its sequence, page by page', async () => {
    const empty = await feed('');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ data: [], next_cursor: '0', has_more: false });

    const c = await create(customer);
    const l = await create(lead);
    await portal.request(`/api/v1/customers/${c.id}`, {
      method: 'PATCH',
      headers: admin,
      body: '{"notes":"VIP"}',
    });
    await portal.post(`/api/v1/leads/${l.id}/qualify`, {}, admin);
    expect(
      (await portal.request(`/api/v1/customers/${c.id}`, { method: 'DELETE', headers: admin }))
        .status,
    ).toBe(204);

    const { items, cursor } = await drain('page_size=2');
    expect(items.map((e) => [e.sequence, e.type, e.data.object.id])).toEqual([
      [1, 'customer.created', c.id],
      [2, 'lead.created', l.id],
      [3, 'customer.updated', c.id],
      [4, 'lead.qualify', l.id],
      [5, 'customer.deleted', c.id],
    ]);
    expect(cursor).toBe('5');
    const qualified = items[3]!;
    expect(Object.keys(qualified)).toEqual([
      'id',
      'sequence',
      'type',
      'created_at',
      'tenant_id',
      'data',
    ]);
    expect(qualified).toMatchObject({
      tenant_id: tenant.id,
      data: { previous_status: 'nouveau', action: 'qualify', object: { status: 'qualifie' } },
    });
    expect(qualified.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const stored = await portal.tdb.pool.query(
      'SELECT id, created_at FROM events WHERE sequence = 4 AND tenant_id = $1',
      [tenant.id],
    );
    expect(qualified.id).toBe(stored.rows[0].id);
    expect(qualified.created_at).toBe((stored.rows[0].created_at as Date).toISOString());

    // Caught up: an empty page whose cursor is where to poll from.
    const caughtUp = await feed(`?after=${cursor}`);
    expect(caughtUp.body).toEqual({ data: [], next_cursor: '5', has_more: false });
    const p = await create(product);
    const next = await feed(`?after=${cursor}`);
    expect(next.body.data.map((e: Item) => [e.sequence, e.data.object.id])).toEqual([[6, p.id]]);
    expect(next.body.next_cursor).toBe('6');
  });

  it('filters by type, moving the cursor past what it skipped', async () => {
    const before = (await drain('')).cursor;
    const l = await create(lead);
    await create(customer);
    await portal.post(`/api/v1/leads/${l.id}/qualify`, {}, admin);
    const res = await feed(`?after=${before}&type=lead.qualify,lead.created`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: Item) => e.type)).toEqual(['lead.created', 'lead.qualify']);
    expect(res.body.next_cursor).toBe(String(Number(before) + 3));
    expect(res.body.has_more).toBe(false);
  });

  it('never shows a test delivery', async () => {
    const webhooks = await portal
      .post(
        '/api/v1/settings/webhooks',
        { url: 'https://hooks.example.com/hook', events: ['lead.created'] },
        admin,
      )
      .then(portal.json);
    expect(webhooks.status).toBe(201);
    const before = (await drain('')).cursor;
    expect(
      (await portal.post(`/api/v1/settings/webhooks/${webhooks.body.id}/test`, {}, admin)).status,
    ).toBe(202);
    const l = await create(lead);
    const { items } = await drain('', admin, before);
    expect(items.map((e) => [e.type, e.data.object.id])).toEqual([['lead.created', l.id]]);
    expect(items[0]!.sequence).toBe(Number(before) + 1);
  });

  it('shows each caller the events of the modules it may read; webhooks sees all', async () => {
    const all = (await drain('')).items;
    expect(new Set(all.map((e) => e.type.split('.')[0]))).toEqual(
      new Set(['customer', 'lead', 'product']),
    );
    const crmReader = await portal.addUser(tenant, ['crm:reader']);
    const crm = await drain('', session(crmReader.token, tenant.slug));
    expect(crm.items.map((e) => e.sequence)).toEqual(
      all.filter((e) => !e.type.startsWith('product.')).map((e) => e.sequence),
    );
    // Every event was looked at: the cursor is the same as an unfiltered reader's.
    expect(crm.cursor).toBe(String(all.at(-1)!.sequence));
    const typed = await feed('?type=product.created', session(crmReader.token, tenant.slug));
    expect(typed.status).toBe(403);
    expect(typed.body).toMatchObject({
      code: 'acces_refuse',
      params: { required: 'inventory:read' },
    });

    const hooksKey = (await portal.createKey(tenant, ['webhooks'])).key;
    const hooks = await drain('', apiKey(hooksKey, tenant.slug));
    expect(hooks.items).toEqual(all);

    const nothing = (await portal.createKey(tenant, ['rules'])).key;
    const refused = await feed('', apiKey(nothing, tenant.slug));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'acces_refuse', params: { required: 'webhooks' } });
  });

  it('answers with another tenant’s own feed, never this one', async () => {
    const other = await portal.provisionTenant('enterprise');
    const otherAdmin = session((await portal.login(other.adminEmail)).access_token, other.slug);
    const empty = await drain('', otherAdmin);
    expect(empty.items).toEqual([]);
    const mine = await create(customer, { ...otherAdmin, 'content-type': 'application/json' });
    const { items } = await drain('', otherAdmin);
    expect(items.map((e) => [e.sequence, e.data.object.id, e.tenant_id])).toEqual([
      [1, mine.id, other.id],
    ]);
    // A position of this tenant's feed beyond the other's end is refused, not answered empty.
    const ahead = await feed('?after=5', otherAdmin);
    expect(ahead.status).toBe(400);
    expect(ahead.body.params.issues[0]).toMatchObject({ path: 'after', code: 'cursor_ahead' });
  });

  it('refuses bad input with requete_invalide, never a 500', async () => {
    for (const query of [
      'after=abc',
      'after=-1',
      'after=1.5',
      'after=99999999999999999999',
      'page_size=0',
      'page_size=1001',
      'type=nope',
      'type=lead.created,',
      'type=webhook.test',
      'after=999999',
    ]) {
      const res = await feed(`?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe('requete_invalide');
      expect(res.body.params.issues.length, query).toBeGreaterThan(0);
    }
    const unknown = await feed('?type=lead.created,nope.created');
    expect(unknown.body.params.issues).toEqual([
      expect.objectContaining({ path: 'type', message: 'unknown event type "nope.created"' }),
    ]);
    expect((await portal.request('/api/v1/events')).status).toBe(401);
  });

  it('refuses a cursor older than what is kept, and starts after it when none is given', async () => {
    await portal.tdb.pool.query(
      'UPDATE event_sequences SET purged_through = 2 WHERE tenant_id = $1',
      [tenant.id],
    );
    const expired = await feed('?after=1');
    expect(expired.status).toBe(400);
    expect(expired.body.params.issues[0]).toMatchObject({ path: 'after', code: 'cursor_expired' });
    const fromStart = await feed('?page_size=1');
    expect(fromStart.body.data[0].sequence).toBe(3);
    expect((await feed('?after=2')).status).toBe(200);
  });

  it('an event that commits late is served after the cursor already handed out, never behind it', async () => {
    const before = (await drain('')).cursor;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lateId = '';
    // A transaction that writes first and commits last.
    const late = portal.deps.tenantDb.transaction(tenant.id, async (client) => {
      lateId = JSON.parse(
        (await insertRecord(client, lead, tenant.id, sampleBody(lead, n++, new Map()), WRITER))
          .json,
      ).id;
      await held;
    });
    await new Promise((r) => setTimeout(r, 50));
    const early = await create(customer);
    const first = await drain('', admin, before);
    expect(first.items.map((e) => e.data.object.id)).toEqual([early.id]);
    release();
    await late;
    const second = await drain('', admin, first.cursor);
    expect(second.items.map((e) => [e.sequence, e.data.object.id])).toEqual([
      [Number(first.cursor) + 1, lateId],
    ]);
  });
});
