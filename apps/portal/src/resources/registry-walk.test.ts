import { catalogue, isReadKind, lookupOf, resourceRoutes } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { ALL_MODULE_SCOPES, populate } from '../../test/resources-harness';

/**
 * Generated from the registry: every route of every resource, called by another tenant's
 * session and key (must never see or touch tenant A's records) and by tenant A callers
 * without the right (must be refused).
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
const callers: Record<string, Record<string, string>> = {};
let recordsOfA: Map<string, string[]>;
const registry = lookupOf(catalogue);
const routes = catalogue.flatMap((r) => resourceRoutes(r, registry));
/** Two modules, so every route has callers whose only rights are on another module. */
const OUTSIDER_MODULES = ['projects', 'support'] as const;

beforeAll(async () => {
  // Thousands of session requests a minute (SPEC §16 limits sessions too, and counts them
  // toward the tenant's ceiling with its keys): lifted, so 429s do not hide the rest.
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: '1000000' });
  const a = await portal.provisionTenant('enterprise');
  const b = await portal.provisionTenant('enterprise');
  await portal.tdb.pool.query(
    'UPDATE tenants SET rate_limit_per_minute = 1000000 WHERE id = ANY($1::uuid[])',
    [[a.id, b.id]],
  );
  const headersA = {
    ...session((await portal.login(a.adminEmail)).access_token, a.slug),
    'content-type': 'application/json',
  };
  const headersB = {
    ...session((await portal.login(b.adminEmail)).access_token, b.slug),
    'content-type': 'application/json',
  };
  recordsOfA = await populate(portal, catalogue, headersA);
  callers['tenant A admin'] = headersA;
  await populate(portal, catalogue, headersB);
  callers['tenant B session'] = headersB;
  callers['tenant B key'] = {
    ...apiKey((await portal.createKey(b, ALL_MODULE_SCOPES, 30, 3000)).key, b.slug),
    'content-type': 'application/json',
  };
  // Callers with every right but on one module: each route is tried by those of another module.
  for (const module of OUTSIDER_MODULES) {
    const outsider = await portal.addUser(a, [`${module}:editor`]);
    callers[`A user of ${module} only`] = {
      ...session(outsider.token, a.slug),
      'content-type': 'application/json',
    };
    callers[`A key of ${module} only`] = {
      ...apiKey((await portal.createKey(a, [`${module}:write`], 30, 3000)).key, a.slug),
      'content-type': 'application/json',
    };
  }
}, 120_000);
afterAll(() => portal.tdb.close());

/** Calls a route; an export's rows stay text (NDJSON), every other answer is JSON. */
async function call(route: (typeof routes)[number], headers: Record<string, string>, id: string) {
  const path =
    route.route.path.replace('{id}', id) + (route.kind === 'export' ? '?format=ndjson' : '');
  const body = route.kind === 'create' || route.kind === 'update' ? JSON.stringify({}) : undefined;
  const res = await portal.request(path, {
    method: route.route.method.toUpperCase(),
    headers,
    body,
  });
  const text = await res.text();
  const rows = route.kind === 'export' && res.ok;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are read loosely; each assertion states its shape.
  return { status: res.status, text, body: (rows || !text ? undefined : JSON.parse(text)) as any };
}

// A few seconds each when the machine is quiet; 1 600 routes take minutes while CI's other suites run.
describe(`every route of the registry (${routes.length} routes)`, { timeout: 180_000 }, () => {
  it('covers every resource and kind', () => {
    expect(new Set(routes.map((r) => r.resource.name)).size).toBe(catalogue.length);
    expect(routes.length).toBeGreaterThanOrEqual(catalogue.length * 6);
  });

  it("another tenant's session and key never read, change or learn of tenant A's records", async () => {
    // What tenant A holds before the walk: its records (provisioning's books and the flows that
    // made allocations, which issue, post and record events, included) must be exactly as many,
    // at the same versions, with no new event, after tenant B tried every route on them.
    const tenantOfA = (
      await portal.tdb.pool.query(`SELECT tenant_id FROM ${catalogue[0]!.table} WHERE id = $1`, [
        recordsOfA.get(catalogue[0]!.name)![0],
      ])
    ).rows[0].tenant_id;
    const snapshot = async () => {
      const counts: Record<string, unknown> = {};
      for (const resource of catalogue) {
        const { rows } = await portal.tdb.pool.query(
          `SELECT count(*)::int AS n, sum(version)::int AS v FROM ${resource.table} WHERE tenant_id = $1`,
          [tenantOfA],
        );
        counts[resource.name] = rows[0];
      }
      const events = await portal.tdb.pool.query(
        'SELECT count(*)::int AS n FROM events WHERE tenant_id = $1',
        [tenantOfA],
      );
      return { counts, events: events.rows[0].n as number };
    };
    const before = await snapshot();
    for (const who of ['tenant B session', 'tenant B key']) {
      for (const route of routes) {
        const idOfA = recordsOfA.get(route.resource.name)![0]!;
        const res = await call(route, callers[who]!, idOfA);
        const label = `${who}: ${route.route.method} ${route.route.path}`;
        if (route.kind === 'list' || route.kind === 'export') {
          expect(res.status, label).toBe(200);
          const rows: { id: string }[] =
            route.kind === 'list'
              ? res.body.data
              : res.text
                  .trim()
                  .split('\n')
                  .map((line: string) => JSON.parse(line));
          const ids = rows.map((r) => r.id);
          expect(ids.length, label).toBeGreaterThan(0);
          expect(
            ids.filter((id: string) => recordsOfA.get(route.resource.name)!.includes(id)),
            label,
          ).toEqual([]);
        } else if (route.kind === 'create') {
          expect(res.status, label).toBe(400); // empty body: validation, and nothing of A involved
        } else {
          expect(res.status, label).toBe(404);
          expect(res.body.code, label).toBe('introuvable');
        }
      }
    }
    // Nothing of A changed: as many records, at the same versions, and no new event.
    const after = await snapshot();
    for (const resource of catalogue)
      expect(after.counts[resource.name], resource.name).toEqual(before.counts[resource.name]);
    expect(after.events).toBe(before.events);
  });

  it('select and export work on every resource: the export holds the list, a select keeps only its field', async () => {
    const headers = callers['tenant A admin']!;
    const read = (path: string) => portal.request(path, { headers });
    for (const resource of catalogue) {
      const base = `/api/v1/${resource.path}`;
      const list = await portal.json(await read(`${base}?page_size=200`));
      expect(list.status, base).toBe(200);
      const ndjson = await (await read(`${base}/export?format=ndjson`)).text();
      const exported = ndjson
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(exported, base).toEqual(list.body.data);
      const fields = Object.keys(resource.allFields);
      const csv = await (await read(`${base}/export?format=csv`)).text();
      expect(csv.slice(0, csv.indexOf('\r\n')), base).toBe(fields.join(','));
      const field = fields[fields.length - 1]!;
      const selected = await portal.json(await read(`${base}?select=${field}`));
      expect(
        selected.body.data.map((r: object) => Object.keys(r)),
        base,
      ).toEqual(list.body.data.map(() => ['id', field]));
      const one = await portal.json(await read(`${base}/${list.body.data[0].id}?select=${field}`));
      expect(one.body, base).toEqual({
        id: list.body.data[0].id,
        [field]: list.body.data[0][field],
      });
    }
  });

  it('every route refuses a caller without the right (403 acces_refuse naming it)', async () => {
    for (const kind of ['user', 'key']) {
      for (const route of routes) {
        const module = OUTSIDER_MODULES.find((m) => m !== route.resource.module)!;
        const who = `A ${kind} of ${module} only`;
        const res = await call(route, callers[who]!, recordsOfA.get(route.resource.name)![0]!);
        const right = `${route.resource.module}:${isReadKind(route.kind) ? 'read' : 'write'}`;
        const label = `${who}: ${route.route.method} ${route.route.path}`;
        expect(res.status, label).toBe(403);
        expect(res.body, label).toMatchObject({
          code: 'acces_refuse',
          params: { required: right },
        });
      }
    }
  });

  it("every resource's created record has its history: version 1, create, by the admin, every field it set", async () => {
    const admin = callers['tenant A admin']!;
    for (const resource of catalogue) {
      const id = recordsOfA.get(resource.name)![0]!;
      const record = (
        await portal.request(`/api/v1/${resource.path}/${id}`, { headers: admin }).then(portal.json)
      ).body;
      const res = await portal
        .request(`/api/v1/${resource.path}/${id}/history`, { headers: admin })
        .then(portal.json);
      expect(res.status, resource.name).toBe(200);
      const set = Object.entries(record as Record<string, unknown>).filter(
        ([field, value]) =>
          value !== null && !['id', 'version', 'created_at', 'updated_at'].includes(field),
      );
      expect(res.body, resource.name).toMatchObject({
        data: [
          {
            version: 1,
            action: 'create',
            actor: { type: 'user', name: 'Admin' },
            changes: Object.fromEntries(set.map(([field, value]) => [field, [null, value]])),
          },
        ],
        next_cursor: null,
      });
      expect(Object.keys(res.body.data[0].changes).length, resource.name).toBe(set.length);
    }
  });

  it('a tenant that did not buy a module gets module_non_souscrit on its routes', async () => {
    const starter = await portal.provisionTenant('starter'); // sales + crm only
    const headers = {
      ...session((await portal.login(starter.adminEmail)).access_token, starter.slug),
      'content-type': 'application/json',
    };
    const foreign = routes.filter((r) => !['sales', 'crm'].includes(r.resource.module));
    expect(foreign.length).toBeGreaterThan(0);
    for (const route of foreign) {
      const res = await call(route, headers, '00000000-0000-4000-8000-000000000000');
      expect(res.status, route.route.path).toBe(403);
      expect(res.body, route.route.path).toMatchObject({
        code: 'module_non_souscrit',
        params: { module: route.resource.module },
      });
    }
  });
});
