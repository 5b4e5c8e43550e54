import { defineResource, integer, text } from '@erp/contract';
import { resourceTableSql } from '@erp/db/resource-ddl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';
import { createTenantDatabase, type TenantDatabase } from './tenant-database';

/**
 * SPEC §16 on the business pools: statements under a time limit, a bounded wait for a
 * connection (both 503 `surcharge`), at most 2 exports per tenant with a time budget, and the
 * named statements a connection keeps bounded.
 */
const gadget = defineResource({
  name: 'gadget',
  path: 'gadgets',
  module: 'inventory',
  description: 'A table for the limits.',
  fields: {
    label: text({ required: true, filterable: true, sortable: true }),
    qty: integer({ required: true, filterable: true, sortable: true }),
    note: text({ maxLength: 5000 }),
    color: text({ filterable: true }),
    size: integer({ filterable: true }),
    shelf: text({ filterable: true }),
  },
});
const ROWS = 20_000;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: { id: string; slug: string; headers: Record<string, string> };
const opened: TenantDatabase[] = [];

/** An app whose business statements run on `tenantDb` (its options are what a test checks). */
function appWith(options: Omit<Parameters<typeof createTenantDatabase>[0], 'url'>, env = {}) {
  const tenantDb = createTenantDatabase({ url: portal.tdb.url, ...options });
  opened.push(tenantDb);
  const app = buildApp({ ...portal.deps, tenantDb, env: { ...portal.deps.env, ...env } }, [gadget]);
  return { app, tenantDb };
}

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.tdb.pool.query(resourceTableSql(gadget));
  const t = await portal.provisionTenant('enterprise');
  tenant = {
    id: t.id,
    slug: t.slug,
    headers: session((await portal.login(t.adminEmail)).access_token, t.slug),
  };
  await portal.tdb.pool.query(
    `INSERT INTO gadgets (tenant_id, label, qty, note) SELECT $1, 'g' || g, g, repeat('x', 1000) FROM generate_series(1, ${ROWS}) g`,
    [t.id],
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await portal?.tdb.close();
});

const body = async (res: Response) => (await res.json()) as { code: string; params: object };

describe('time limits', () => {
  it('a statement past statement_timeout answers 503 surcharge with Retry-After', async () => {
    const { app } = appWith({ max: 2, statementTimeoutMs: 300 });
    // Another session holds the table: the list's statement waits on the lock, and the wait
    // counts toward its time. Let go after 4 s whatever happens (a list without a limit then
    // answers 200).
    const holder = await portal.tdb.pool.connect();
    await holder.query('BEGIN; LOCK TABLE gadgets IN ACCESS EXCLUSIVE MODE');
    const letGo = setTimeout(() => void holder.query('ROLLBACK'), 4_000);
    try {
      const started = Date.now();
      const res = await app.request('/api/v1/gadgets?page_size=1', { headers: tenant.headers });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(await body(res)).toMatchObject({ code: 'surcharge' });
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      clearTimeout(letGo);
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('waiting for a connection past the pool’s limit answers 503 surcharge', async () => {
    const { app, tenantDb } = appWith({ max: 1, connectionTimeoutMs: 200 });
    let release = () => {};
    const held = tenantDb.run(tenant.id, () => new Promise<void>((r) => (release = r)));
    // The connection comes back after 4 s whatever happens (a pool without a limit then answers).
    const letGo = setTimeout(() => release(), 4_000);
    try {
      const started = Date.now();
      const res = await app.request('/api/v1/gadgets?page_size=1', { headers: tenant.headers });
      expect(res.status).toBe(503);
      expect(await body(res)).toMatchObject({ code: 'surcharge' });
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      clearTimeout(letGo);
      release();
      await held;
    }
  });
});

describe('exports', () => {
  it('at most 2 at once per tenant: a third gets 429 with Retry-After; another tenant is not counted', async () => {
    const { app } = appWith({ max: 2, exports: { max: 6 } });
    const exportOf = (headers: Record<string, string>) =>
      app.request('/api/v1/gadgets/export?format=ndjson', { headers });
    // Two exports that nobody reads: each keeps its transaction (and its slot) open.
    const running = [await exportOf(tenant.headers), await exportOf(tenant.headers)];
    for (const res of running) expect(res.status).toBe(200);
    try {
      const third = await exportOf(tenant.headers);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await body(third)).toMatchObject({ code: 'limite_depassee' });

      const otherTenant = await portal.provisionTenant('enterprise');
      const other = await exportOf(
        session((await portal.login(otherTenant.adminEmail)).access_token, otherTenant.slug),
      );
      expect(other.status).toBe(200);
      await other.text();
    } finally {
      await Promise.all(running.map((res) => res.body?.cancel()));
    }
    // The slots went with the exports' transactions, which end after the cancel (a moment
    // later under load): a new export is let in within a few seconds, and keeps nothing after.
    const deadline = Date.now() + 10_000;
    let again = await exportOf(tenant.headers);
    while (again.status === 429 && Date.now() < deadline) {
      await again.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await exportOf(tenant.headers);
    }
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it('a reader too slow to finish within the export’s budget is dropped, and its connection comes back', async () => {
    const { app, tenantDb } = appWith(
      { max: 2, exports: { max: 2 } },
      { EXPORT_TIME_BUDGET_MS: 1_000, EXPORT_STALL_MS: 60_000 },
    );
    const res = await app.request('/api/v1/gadgets/export?format=ndjson', {
      headers: tenant.headers,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = 0;
    let failure: unknown;
    const until = Date.now() + 4_000;
    try {
      // A chunk every 100 ms: never stalled, and far from the 20 MB in 1 s.
      while (Date.now() < until) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.length;
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/took more than its 1000 ms/);
    expect(bytes).toBeLessThan(ROWS * 1000);
    // The dropped connection leaves the export pool (the pool opens another when asked).
    const deadline = Date.now() + 5_000;
    while (tenantDb.exportPool.totalCount - tenantDb.exportPool.idleCount > 0) {
      if (Date.now() > deadline) throw new Error('the export’s connection never came back');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe('prepared statements', () => {
  it('500 distinct select= permutations leave at most the bound on the connection', async () => {
    const BOUND = 40;
    const { app, tenantDb } = appWith({ max: 1, maxPreparedStatements: BOUND });
    const fields = Object.keys(gadget.fields);
    const selects: string[] = [];
    const pick = (chosen: string[], size: number) => {
      if (selects.length >= 500) return;
      if (chosen.length === size) {
        selects.push(chosen.join(','));
        return;
      }
      for (const f of fields) if (!chosen.includes(f)) pick([...chosen, f], size);
    };
    for (const size of [4, 3, 2]) pick([], size);
    expect(new Set(selects).size).toBe(500);
    for (const select of selects) {
      const res = await app.request(`/api/v1/gadgets?page_size=1&select=${select}`, {
        headers: tenant.headers,
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const count = async () =>
      Number(
        (
          await tenantDb.run(tenant.id, (client) =>
            client.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements'),
          )
        ).rows[0]!.n,
      );
    const left = await count();
    expect(left).toBeLessThanOrEqual(BOUND);
    expect(left).toBeGreaterThan(0);
    // An evicted shape is prepared anew, and answers as before.
    const first = await app.request(`/api/v1/gadgets?page_size=1&select=${selects[0]}`, {
      headers: tenant.headers,
    });
    expect(first.status).toBe(200);
    expect(Object.keys(((await first.json()) as { data: object[] }).data[0]!)).toEqual(
      expect.arrayContaining(selects[0]!.split(',')),
    );
    expect(await count()).toBeLessThanOrEqual(BOUND);
  });
});
