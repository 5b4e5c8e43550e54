import { catalogue, type Resource, referencedResources } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../seed';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';
import { patchRecord } from './records-write';

/**
 * Record history (SPEC §12): each write of the engine records its version in the same
 * statement, and `GET /{path}/{id}/history` reads them back newest first.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let asAdmin: Record<string, string>;
let asKey: Record<string, string>;
let keyId: string;
let refs: Map<string, string[]>;
/** Numbered, priced lines with totals, and a lifecycle whose `activate` keeps it editable. */
const blanketOrder = catalogue.find((r) => r.name === 'blanket_order')!;
const BOOKKEEPING = ['id', 'version', 'created_at', 'updated_at'];

/** The resource and every resource it refers to, transitively, in the catalogue's order. */
function withDependencies(resource: Resource): Resource[] {
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const n of referencedResources(catalogue.find((r) => r.name === name)!)) visit(n);
  };
  visit(resource.name);
  return catalogue.filter((r) => needed.has(r.name) && r.name !== resource.name);
}

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  asAdmin = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  const key = await portal.createKey(tenant, ['sales:read', 'sales:write']);
  keyId = key.id;
  asKey = { ...apiKey(key.key, tenant.slug), 'content-type': 'application/json' };
  refs = await populate(portal, withDependencies(blanketOrder), asAdmin, 1);
}, 120_000);
afterAll(() => portal.tdb.close());

const base = `/api/v1/${blanketOrder.path}`;
const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  portal
    .request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(portal.json);
const history = (id: string, headers = asAdmin, query = '') =>
  call('GET', `${base}/${id}/history${query}`, headers);
const historyRows = async (id: string) =>
  (
    await portal.tdb.pool.query(
      'SELECT count(*)::int AS n FROM record_history WHERE record_id = $1',
      [id],
    )
  ).rows[0].n as number;

/** What a record's fields changed from `before` to `after`, as the API shows them. */
function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    if (BOOKKEEPING.includes(key)) continue;
    const old = before?.[key] ?? null;
    const now = after?.[key] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(now)) changes[key] = [old, now];
  }
  return changes;
}

async function create() {
  const res = await call('POST', base, asAdmin, sampleBody(blanketOrder, 3, refs));
  expect(res.status).toBe(201);
  return res.body as Record<string, unknown> & { id: string };
}

describe('the history of a record', () => {
  it('shows every version, newest first, with its actor, action and exact changes; a deleted record keeps it', async () => {
    const v1 = await create();
    const v2 = await call(
      'PATCH',
      `${base}/${v1.id}`,
      { ...asAdmin, 'if-match': '"1"' },
      {
        notes: 'Prix revus au 1er mars',
      },
    );
    expect(v2.status).toBe(200);
    const lines = [
      {
        ...(v1.lines as Record<string, unknown>[])[0],
        quantity: '120',
        unit_price_cents: 1450,
      },
    ];
    const v3 = await call('PATCH', `${base}/${v1.id}`, asKey, { lines });
    expect(v3.status).toBe(200);
    const v4 = await call('POST', `${base}/${v1.id}/activate`, asAdmin);
    expect(v4.status).toBe(200);
    expect((await call('DELETE', `${base}/${v1.id}`, asKey)).status).toBe(204);
    expect((await call('GET', `${base}/${v1.id}`, asAdmin)).status).toBe(404);

    const res = await history(v1.id);
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    const admin = { type: 'user', id: tenant.adminId, name: 'Admin' };
    const key = { type: 'api_key', id: keyId, name: 'test key' };
    expect(res.body.data.map(({ at: _, ...entry }: { at: string }) => entry)).toEqual([
      { version: 5, actor: key, action: 'delete', changes: diff(v4.body, null) },
      { version: 4, actor: admin, action: 'activate', changes: { status: ['brouillon', 'actif'] } },
      {
        version: 3,
        actor: key,
        action: 'update',
        changes: diff(v2.body, v3.body),
      },
      {
        version: 2,
        actor: admin,
        action: 'update',
        changes: { notes: [v1.notes ?? null, 'Prix revus au 1er mars'] },
      },
      { version: 1, actor: admin, action: 'create', changes: diff(null, v1) },
    ]);
    // The line items are one field; the totals they change are fields of their own.
    expect(Object.keys(res.body.data[2].changes).sort()).toEqual([
      'lines',
      'subtotal_cents',
      'tax_cents',
      'total_cents',
    ]);
    // A creation lists every field it set, and nothing it did not.
    const created = res.body.data[4].changes as Record<string, [unknown, unknown]>;
    expect(created.number?.[1]).toMatch(/^BO-\d{4}-\d{5}$/);
    expect(created.status).toEqual([null, 'brouillon']);
    expect(Object.values(created).every(([old, now]) => old === null && now !== null)).toBe(true);
    for (const entry of res.body.data) expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
    expect(res.body.data[0].at >= res.body.data[4].at).toBe(true);
  });

  it('pages newest first with next_cursor, and refuses a cursor it did not issue (400, never 500)', async () => {
    const record = await create();
    for (let n = 0; n < 4; n++)
      expect(
        (await call('PATCH', `${base}/${record.id}`, asAdmin, { notes: `note ${n}` })).status,
      ).toBe(200);
    const versions: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await history(
        record.id,
        asAdmin,
        `?page_size=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      versions.push(...res.body.data.map((e: { version: number }) => e.version));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(versions).toEqual([5, 4, 3, 2, 1]);
    expect(pages).toBe(3);

    const list = await call('GET', `${base}?page_size=1`, asAdmin);
    for (const bad of [
      'nope',
      list.body.next_cursor,
      Buffer.from('["history",0]').toString('base64url'),
    ]) {
      const res = await history(record.id, asAdmin, `?cursor=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: { issues: [{ path: 'cursor', code: 'invalid_cursor' }] },
      });
    }
    const tooBig = await history(record.id, asAdmin, '?page_size=201');
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.code).toBe('requete_invalide');
  });

  it('a write that fails records nothing: validation, If-Match, a forbidden transition, a failed create', async () => {
    const record = await create();
    const total = async () =>
      (await portal.tdb.pool.query('SELECT count(*)::int AS n FROM record_history')).rows[0].n;
    const before = await total();
    const refused = [
      await call('PATCH', `${base}/${record.id}`, asAdmin, { end_date: 'not a date' }),
      await call(
        'PATCH',
        `${base}/${record.id}`,
        { ...asAdmin, 'if-match': '"7"' },
        { notes: 'x' },
      ),
      await call('POST', `${base}/${record.id}/resume`, asAdmin),
      await call('POST', base, asAdmin, {
        ...sampleBody(blanketOrder, 4, refs),
        customer_id: undefined,
      }),
      await call('PATCH', `${base}/${record.id}`, asKey, {
        customer_id: '7d0e2b8c-5f1a-4c3e-9b6d-2a4f8e1c0d93',
      }),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [400, 'requete_invalide'],
      [409, 'conflit'],
      [409, 'transition_invalide'],
      [400, 'requete_invalide'],
      [400, 'requete_invalide'],
    ]);
    expect(await total()).toBe(before);
    expect(await historyRows(record.id)).toBe(1);
    expect((await history(record.id)).body.data.map((e: { action: string }) => e.action)).toEqual([
      'create',
    ]);
  });

  it('an idempotent replay records nothing more: one create, one action', async () => {
    const body = sampleBody(blanketOrder, 5, refs);
    const key = { ...asAdmin, 'idempotency-key': `history-${Date.now()}` };
    const first = await call('POST', base, key, body);
    const replay = await call('POST', base, key, body);
    expect([first.status, replay.status, replay.body.id]).toEqual([201, 201, first.body.id]);
    const actionKey = { ...asAdmin, 'idempotency-key': `history-action-${Date.now()}` };
    for (let n = 0; n < 2; n++)
      expect((await call('POST', `${base}/${first.body.id}/activate`, actionKey)).status).toBe(200);
    expect(
      (await history(first.body.id)).body.data.map((e: { action: string }) => e.action),
    ).toEqual(['activate', 'create']);
  });

  it('an update that waited for a concurrent one records its change against the version that one made', async () => {
    const record = await create();
    const actor = { type: 'user', id: tenant.adminId } as const;
    let waiting: Promise<Awaited<ReturnType<typeof call>>> | undefined;
    // The first change holds the row lock until the second statement (its snapshot taken
    // before the first commits) waits for it: the second's "old" must be the first's "new".
    await portal.deps.tenantDb.transaction(tenant.id, async (client) => {
      await patchRecord(
        client,
        blanketOrder,
        tenant.id,
        record.id,
        { notes: 'first' },
        null,
        actor,
      );
      waiting = call('PATCH', `${base}/${record.id}`, asKey, { notes: 'second' });
      await until(async () => {
        const { rows } = await portal.tdb.pool.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        return rows[0].n > 0;
      });
    });
    expect((await waiting!).status).toBe(200);
    const entries = (await history(record.id)).body.data;
    expect(
      entries.map((e: { version: number; changes: unknown }) => [e.version, e.changes]),
    ).toEqual([
      [3, { notes: ['first', 'second'] }],
      [2, { notes: [record.notes ?? null, 'first'] }],
      [1, expect.any(Object)],
    ]);
  });

  it("another tenant never sees a record's history; an unknown id is introuvable like get", async () => {
    const record = await create();
    const other = await portal.provisionTenant('enterprise');
    const asOther = session((await portal.login(other.adminEmail)).access_token, other.slug);
    const res = await history(record.id, asOther);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'introuvable',
      params: { resource: 'blanket_order', id: record.id },
    });
    const unknown = '0190a000-0000-7000-8000-000000000000';
    const get = await call('GET', `${base}/${unknown}`, asAdmin);
    const hist = await history(unknown);
    expect([hist.status, hist.body]).toEqual([get.status, get.body]);
    // Row-level security on its own: the other tenant's connection sees none of these rows.
    const seen = await portal.deps.tenantDb.transaction(
      other.id,
      async (client) =>
        (await client.query('SELECT count(*)::int AS n FROM record_history')).rows[0].n,
    );
    expect(seen).toBe(0);
    // Nor can it write a row for this tenant.
    await expect(
      portal.deps.tenantDb.transaction(other.id, (client) =>
        client.query(
          `INSERT INTO record_history (tenant_id, resource, record_id, version, actor_type, actor_id, action, changes)
           VALUES ($1, 'blanket_order', $2, 99, 'user', $3, 'update', '{}')`,
          [tenant.id, record.id, tenant.adminId],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('needs the read right of the resource’s module (403 acces_refuse), and the module', async () => {
    const record = await create();
    const outsider = await portal.addUser(tenant, ['projects:editor']);
    const res = await history(record.id, session(outsider.token, tenant.slug));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'sales:read' } });
    const reader = await portal.createKey(tenant, ['sales:read']);
    const allowed = await history(record.id, apiKey(reader.key, tenant.slug));
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toHaveLength(1);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
