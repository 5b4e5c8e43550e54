/**
 * The whole product behind PgBouncer in transaction mode (SPEC §15, docs/connection-pooler.md):
 * portal, landing and worker reach PostgreSQL only through Debian's PgBouncer 1.18 with two
 * server connections, which it hands to whichever client asks between two transactions. Two
 * tenants' requests, interleaved and concurrent, must never see each other's rows, never run
 * with a role or tenant another left behind, and never meet a prepared-statement error
 * (1.18 cannot carry named statements across transactions: DATABASE_PREPARED_STATEMENTS=false).
 * A probe client on the same two server connections checks, between transactions, that no
 * tenant and no role stay set on them.
 */
import { createPool } from '@erp/db';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type PgBouncer, startPgBouncer } from './pgbouncer';
import { type Platform, startPlatform } from './platform';

const SERVER_CONNECTIONS = 2;
const ROUNDS = 12;

let bouncer: PgBouncer;
/** The worker's: graphile-worker's LISTEN and the outbox flag need a session of their own. */
let sessions: PgBouncer;
let platform: Platform;
beforeAll(async () => {
  const { adminUrl } = inject('erpTestDatabase');
  [bouncer, sessions] = await Promise.all([
    startPgBouncer({ serverUrl: adminUrl, poolMode: 'transaction', poolSize: SERVER_CONNECTIONS }),
    startPgBouncer({ serverUrl: adminUrl, poolMode: 'session', poolSize: 20 }),
  ]);
  const pooled = { DATABASE_PREPARED_STATEMENTS: 'false', DATABASE_POOL_SIZE: '6' };
  platform = await startPlatform(
    {
      // The tenant bound in every transaction: nothing stays on a server connection.
      portal: { ...pooled, DATABASE_POOLER: 'transaction' },
      landing: pooled,
      worker: { WORKER_CONCURRENCY: '4' },
    },
    {
      databaseUrl: (app, url) => (app === 'worker' ? sessions.route(url) : bouncer.route(url)),
    },
  );
}, 180_000);
afterAll(async () => {
  await platform?.close();
  await Promise.all([bouncer?.stop(), sessions?.stop()]);
});

interface Tenant {
  slug: string;
  headers: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads a few fields of varied bodies.
type Body = any;

async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${platform.portalUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** An admin session of the tenant creates a crm key; the tenant's requests use it. */
async function tenantWithKey(slug: string, email: string, password: string): Promise<Tenant> {
  const login = await call('POST', '/api/v1/auth/login', {}, { email, password, tenant: slug });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const created = await call(
    'POST',
    '/api/v1/settings/api-keys',
    { authorization: `Bearer ${login.body.access_token}`, 'x-tenant': slug },
    {
      name: 'pgbouncer e2e',
      scopes: ['crm:write'],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { slug, headers: { authorization: `Bearer ${created.body.key}`, 'x-tenant-id': slug } };
}

describe('behind PgBouncer in transaction mode, two server connections', () => {
  it('serves two tenants interleaved: no cross-tenant row, no leftover role or tenant, no prepared-statement error', async () => {
    const provisioned = await call(
      'POST',
      '/api/v1/internal/tenants',
      { 'x-api-key': platform.secrets.internalApiKey },
      {
        slug: 'globex',
        name: 'Globex',
        plan_code: 'business',
        admin: { email: 'boss@globex.test', name: 'Boss' },
      },
    );
    expect(provisioned.status, JSON.stringify(provisioned.body)).toBe(201);
    const [demo, globex] = await Promise.all([
      tenantWithKey('demo', 'admin@demo.test', platform.secrets.adminPassword),
      tenantWithKey('globex', 'boss@globex.test', provisioned.body.admin.password),
    ]);

    // Between transactions, a probe on the same server connections sees the login role and no
    // tenant: nothing a request set outlives its transaction.
    const probe = createPool({ url: bouncer.route(platform.db.url), max: 1 });
    const seen = new Set<string>();
    let probing = true;
    const probing$ = (async () => {
      while (probing) {
        const { rows } = await probe.query<{ role: string; tenant: string | null }>(
          "SELECT current_user AS role, current_setting('app.tenant_id', true) AS tenant",
        );
        seen.add(`${rows[0]!.role}|${rows[0]!.tenant ?? ''}`);
      }
    })();

    const statuses: number[] = [];
    const mine = { demo: [] as string[], globex: [] as string[] };
    const wrong: string[] = [];
    const round = async (tenant: Tenant, other: Tenant, i: number) => {
      const name = `${tenant.slug}-pooled-${i}`;
      const created = await call('POST', '/api/v1/customers', tenant.headers, {
        name,
        customer_type: 'company',
        active: true,
      });
      statuses.push(created.status);
      if (created.status === 201) mine[tenant.slug as 'demo' | 'globex'].push(created.body.id);
      const [list, got, me] = await Promise.all([
        call('GET', '/api/v1/customers?order=created_at.desc&page_size=50', tenant.headers),
        created.status === 201
          ? call('GET', `/api/v1/customers/${created.body.id}`, tenant.headers)
          : Promise.resolve({ status: 0, body: null }),
        call('GET', '/api/v1/me', tenant.headers),
      ]);
      statuses.push(list.status, got.status, me.status);
      for (const row of list.body?.data ?? []) {
        if (String(row.name).startsWith(`${other.slug}-`))
          wrong.push(`${tenant.slug} saw ${row.name}`);
      }
      if (got.body?.name !== undefined && got.body.name !== name)
        wrong.push(`${tenant.slug} got ${got.body.name} for ${name}`);
      // Asking for the other tenant's records by id: never found.
      const foreign = mine[other.slug as 'demo' | 'globex'].at(-1);
      if (foreign) {
        const stolen = await call('GET', `/api/v1/customers/${foreign}`, tenant.headers);
        if (stolen.status !== 404) wrong.push(`${tenant.slug} read ${foreign}: ${stolen.status}`);
      }
    };
    // Both tenants at once, each several requests deep, over two server connections.
    for (let i = 0; i < ROUNDS; i++) {
      await Promise.all([
        round(demo, globex, i),
        round(globex, demo, i),
        round(demo, globex, i + 1000),
        round(globex, demo, i + 1000),
      ]);
    }
    probing = false;
    await probing$;
    await probe.end();

    expect(wrong).toEqual([]);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(mine.demo).toHaveLength(2 * ROUNDS);
    expect(mine.globex).toHaveLength(2 * ROUNDS);
    // The rows landed in their own tenant (read directly, not through the portal).
    const { rows } = await platform.db.pool.query<{ slug: string; n: string }>(
      `SELECT t.slug, count(*) AS n FROM customers c JOIN tenants t ON t.id = c.tenant_id
       WHERE c.name LIKE '%-pooled-%' AND c.name LIKE t.slug || '-%' GROUP BY t.slug ORDER BY t.slug`,
    );
    expect(rows).toEqual([
      { slug: 'demo', n: String(2 * ROUNDS) },
      { slug: 'globex', n: String(2 * ROUNDS) },
    ]);
    const login = new URL(platform.db.url).username;
    expect([...seen]).toEqual([`${login}|`]);
    const logs = [...platform.output, ...bouncer.output].join('\n');
    expect(logs).not.toMatch(/prepared statement/i);
    expect(logs).not.toMatch(/erreur_interne/);
  });
});
