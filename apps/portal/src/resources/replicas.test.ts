/**
 * Read replicas with read-your-writes (SPEC §19), end to end: a real primary (embedded
 * PostgreSQL 17) and a real hot standby streaming from it (packages/db's `startStandby`), the
 * portal reading through its router.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '@erp/db';
import { startEmbeddedPostgres } from '@erp/db/embedded';
import { type Standby, startStandby } from '@erp/db/standby';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPlans } from '../../seed';
import { createTestPortal, session } from '../../test/harness';

let dir: string;
let primary: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
let standby: Standby;
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
let probe: pg.Client;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'erp-replica-'));
  // PostgreSQL runs as the `postgres` user when the tests run as root: it must reach its folders.
  await chmod(dir, 0o755);
  primary = await startEmbeddedPostgres({ dataDir: path.join(dir, 'primary'), persistent: true });
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  await admin.query('CREATE DATABASE erp');
  await admin.end();
  const url = primary.urlFor('erp');
  const handle = openDatabase({ url, max: 5 });
  await migrateToLatest(handle);
  await seedPlans(handle.db);
  standby = await startStandby({
    primaryUrl: primary.url,
    primaryDataDir: path.join(dir, 'primary'),
    dataDir: path.join(dir, 'standby'),
  });
  portal = await createTestPortal(
    { DATABASE_REPLICA_URLS: standby.urlFor('erp') },
    { ...handle, url, name: 'erp', close: handle.close },
  );
  const tenant = await portal.provisionTenant();
  headers = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  probe = new pg.Client({ connectionString: standby.urlFor('erp') });
  // Stopping the standby (the last test) ends this connection: expected, not a failure.
  probe.on('error', () => {});
  await probe.connect();
}, 120_000);

afterAll(async () => {
  await probe?.end().catch(() => {});
  await portal?.tdb.close();
  await standby?.remove();
  await primary?.stop();
  await rm(dir, { recursive: true, force: true });
});

const reads = async () => {
  const text = await portal.deps.metrics.registry.getSingleMetricAsString('database_reads_total');
  const count = (target: string, reason: string) =>
    Number(
      new RegExp(`database_reads_total\\{target="${target}",reason="${reason}"\\} (\\d+)`).exec(
        text,
      )?.[1] ?? 0,
    );
  return {
    replica: count('replica', ''),
    notReplayed: count('primary', 'not_replayed'),
    failed: count('primary', 'replica_failed'),
    none: count('primary', 'no_replica'),
  };
};

async function createCustomer(name: string) {
  const res = await portal.request('/api/v1/customers', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name, customer_type: 'company', active: true }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

const get = (id: string) => portal.request(`/api/v1/customers/${id}`, { headers });

async function caughtUp() {
  for (let i = 0; i < 200; i++) {
    await portal.deps.reads!.poll();
    const [replica] = portal.deps.reads!.replicas;
    if (replica?.up && replica.lagBytes === 0n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the standby did not catch up');
}

describe('read replicas (SPEC §19)', () => {
  it('replay paused: what the caller just wrote is read at once, from the primary, every time', async () => {
    await caughtUp();
    await probe.query('SELECT pg_wal_replay_pause()');
    const before = await reads();
    for (let i = 0; i < 10; i++) {
      const { id } = await createCustomer(`Written then read ${i}`);
      const res = await get(id);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { name: string }).name).toBe(`Written then read ${i}`);
    }
    const after = await reads();
    expect(after.notReplayed - before.notReplayed).toBe(10);
    expect(after.replica - before.replica).toBe(0);
    // The standby really is behind: it has not got the last one.
    const { rows } = await probe.query(
      "SELECT count(*)::int AS n FROM customers WHERE name LIKE 'Written then read %'",
    );
    expect(rows[0].n).toBeLessThan(10);
  });

  it('once the replica has replayed it, reads go to the replica (the metric shows it)', async () => {
    await probe.query('SELECT pg_wal_replay_resume()');
    await caughtUp();
    const before = await reads();
    const list = await portal.request(
      '/api/v1/customers?name=like.Written%20then%20read*&page_size=50',
      { headers },
    );
    expect(list.status).toBe(200);
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(10);
    const after = await reads();
    expect(after.replica - before.replica).toBe(1);
    const gauge = await portal.deps.metrics.registry.getSingleMetricAsString('database_replica_up');
    expect(gauge).toMatch(/database_replica_up\{replica="127\.0\.0\.1:\d+"\} 1/);
  });

  it('the replica stopped: no request is lost; started again, it is taken back', async () => {
    const { id } = await createCustomer('Survives the replica');
    await caughtUp();
    await standby.stop();
    const results = await Promise.all(Array.from({ length: 20 }, () => get(id)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    await portal.deps.reads!.poll();
    expect(portal.deps.reads!.replicas[0]!.up).toBe(false);
    const down = await reads();
    expect(down.failed + down.none).toBeGreaterThan(0);
    await standby.start();
    await caughtUp();
    const before = await reads();
    expect((await get(id)).status).toBe(200);
    expect((await reads()).replica - before.replica).toBe(1);
  });
});
