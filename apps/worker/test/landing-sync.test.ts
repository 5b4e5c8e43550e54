import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { createTenant, runWorker, waitFor } from './harness';
import {
  addJob,
  captureLogger,
  jobsOf,
  NO_TICK,
  retryNow,
  type StandInAnswer,
  SYNC_KEY,
  startStandIn,
} from './landing-harness';

let database: TestDatabase;
let worker: RunningWorker | undefined;
let log: ReturnType<typeof captureLogger>;
const standIns: Awaited<ReturnType<typeof startStandIn>>[] = [];

const applied = (counts = { tenants: 2, plans: 2, metadata: 5 }): StandInAnswer => ({
  status: 200,
  json: { status: 'applied', counts },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `INSERT INTO plans (code, name, description, currency, monthly_price_cents, yearly_price_cents, modules, max_users, is_public, sort_order)
     VALUES ('business', 'Business', 'All of it', 'EUR', 9900, 99000, ARRAY['sales','crm','retired'], NULL, true, 2),
            ('starter', 'Starter', 'Start here', 'EUR', 1900, 19000, ARRAY['sales'], 3, true, 1),
            ('internal', 'Internal', '', 'EUR', 0, 0, ARRAY['sales'], NULL, false, 0)`,
  );
});
beforeEach(async () => {
  log = captureLogger();
  await database.pool.query(
    `UPDATE portal_access SET sync_url = NULL, enabled = true, last_attempt_at = NULL, last_success_at = NULL,
       last_status = NULL, last_target = NULL, last_http_status = NULL, last_error = NULL, last_counts = NULL`,
  );
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  for (const s of standIns.splice(0)) await s.close();
  // Whatever ran, the shared key never reached a log line.
  expect(log.text()).not.toContain(SYNC_KEY);
});
afterAll(async () => {
  await database?.close();
});

async function landing(respond: Parameters<typeof startStandIn>[0]) {
  const standIn = await startStandIn(respond);
  standIns.push(standIn);
  return standIn;
}

/** A worker whose start-up push goes to `syncUrl`; no cron tick interferes. */
async function start(env: Record<string, string>) {
  worker = await runWorker(
    database,
    { ERP_SYNC_INTERVAL: NO_TICK, ...env },
    { logger: log.logger },
  );
}

async function access() {
  const { rows } = await database.pool.query('SELECT * FROM portal_access');
  return rows[0];
}

describe('erp_sync', () => {
  it('pushes tenants, public plans and metadata with the key and records ok with landing’s counts', async () => {
    const first = await createTenant(database);
    const second = await createTenant(database);
    const standIn = await landing(() => applied());
    const before = new Date();
    await start({
      LANDING_SYNC_URL: `${standIn.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    const row = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'ok' && r;
    });
    expect(standIn.received).toHaveLength(1);
    const [request] = standIn.received;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/api/erp-sync');
    expect(request!.headers['x-api-key']).toBe(SYNC_KEY);
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    const push = request!.json as {
      generated_at: string;
      tenants: { id: string; slug: string; modules: string[]; plan_code: string | null }[];
      plans: { code: string; modules: string[]; currency: string; max_users: number | null }[];
      metadata: Record<string, unknown>;
    };
    expect(new Date(push.generated_at).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(push.tenants.map((t) => t.id).sort()).toEqual([first, second].sort());
    expect(push.tenants[0]).toMatchObject({ modules: ['sales'], plan_code: null });
    // Public plans only, in the portal's order (sort_order), unknown modules dropped.
    expect(push.plans.map((p) => p.code)).toEqual(['starter', 'business']);
    expect(push.plans[1]).toMatchObject({
      modules: ['sales', 'crm'],
      currency: 'EUR',
      max_users: null,
    });
    expect(push.metadata).toMatchObject({
      tenant_count: 2,
      plan_count: 2,
      api_version: 'v1',
      source: 'portal',
    });
    expect(push.metadata.modules).toContain('accounting');
    expect(row).toMatchObject({
      last_status: 'ok',
      last_target: `${standIn.origin}/api/erp-sync`,
      last_http_status: 200,
      last_error: null,
      last_counts: { tenants: 2, plans: 2, metadata: 5 },
    });
    expect(row.last_success_at).toBeInstanceOf(Date);
    expect(row.last_attempt_at).toBeInstanceOf(Date);
    // The start-up job is the scheduled one's kind: keyed, 3 attempts; the cron item is known.
    const { rows } = await database.pool.query(
      'SELECT identifier FROM graphile_worker._private_known_crontabs',
    );
    expect(rows.map((r) => r.identifier)).toContain('erp_sync');
  });

  it('a 500 is recorded as failed and retried by graphile-worker; a later success records ok', async () => {
    // Landing echoing the key must not get it into the record or the logs.
    const standIn = await landing((r, i) =>
      i === 0 ? { status: 500, json: { error: `boom ${r.headers['x-api-key']}` } } : applied(),
    );
    await start({
      LANDING_SYNC_URL: `${standIn.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    const failed = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'failed' && r;
    });
    expect(failed.last_http_status).toBe(500);
    expect(failed.last_error).toMatch(/^HTTP 500: .*boom \[redacted\]/);
    expect(failed.last_error).not.toContain(SYNC_KEY);
    expect(failed.last_error.length).toBeLessThanOrEqual(300);
    expect(failed.last_success_at).toBeNull();
    const [job] = await waitFor(async () => {
      const jobs = await jobsOf(database, 'erp_sync');
      return jobs[0]?.attempts === 1 && !jobs[0].locked_at && jobs;
    });
    expect(job).toMatchObject({ max_attempts: 3, key: 'erp_sync' });
    expect(job!.last_error).not.toContain(SYNC_KEY);
    await retryNow(database, 'erp_sync');
    const ok = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'ok' && r;
    });
    expect(ok).toMatchObject({ last_http_status: 200, last_error: null });
    expect(standIn.received).toHaveLength(2);
    await waitFor(async () => (await jobsOf(database, 'erp_sync')).length === 0);
  });

  it('disabled in Settings → Portal access: skipped, nothing sent', async () => {
    const standIn = await landing(() => applied());
    await database.pool.query(`UPDATE portal_access SET enabled = false, sync_url = $1`, [
      `${standIn.origin}/api/erp-sync`,
    ]);
    await start({
      LANDING_SYNC_URL: `${standIn.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    const row = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'skipped' && r;
    });
    expect(row.last_attempt_at).toBeInstanceOf(Date);
    expect(standIn.received).toHaveLength(0);
  });

  it('the sync_url of the settings wins over LANDING_SYNC_URL', async () => {
    const fromEnv = await landing(() => applied());
    const fromSettings = await landing(() => applied());
    await database.pool.query(`UPDATE portal_access SET sync_url = $1`, [
      `${fromSettings.origin}/custom/erp-sync`,
    ]);
    await start({
      LANDING_SYNC_URL: `${fromEnv.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    const row = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'ok' && r;
    });
    expect(row.last_target).toBe(`${fromSettings.origin}/custom/erp-sync`);
    expect(fromSettings.received.map((r) => r.path)).toEqual(['/custom/erp-sync']);
    expect(fromEnv.received).toHaveLength(0);
  });

  it('no target: skipped with "no sync target"; a target without LANDING_SYNC_API_KEY: failed', async () => {
    await start({});
    const skipped = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'skipped' && r;
    });
    expect(skipped.last_error).toBe('no sync target');
    const standIn = await landing(() => applied());
    await database.pool.query(`UPDATE portal_access SET sync_url = $1`, [`${standIn.origin}/x`]);
    await addJob(database, jobs.erpSync, {}, { maxAttempts: 1 });
    const failed = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'failed' && r;
    });
    expect(failed.last_error).toBe('LANDING_SYNC_API_KEY is not set');
    expect(standIn.received).toHaveLength(0);
  });

  it('a redirect is not followed: the key stays with the configured target', async () => {
    const elsewhere = await landing(() => applied());
    const standIn = await landing(() => ({
      status: 307,
      headers: { location: `${elsewhere.origin}/api/erp-sync` },
    }));
    await start({
      LANDING_SYNC_URL: `${standIn.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    const failed = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'failed' && r;
    });
    expect(failed.last_http_status).toBe(307);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('the start-up push waits for landing to listen: one info line, no failure, pushed once', async () => {
    // Worker and landing start together (pnpm dev, a deploy): landing is not listening yet.
    const standIn = await landing(() => applied());
    await standIn.down();
    await start({
      LANDING_SYNC_URL: `${standIn.origin}/api/erp-sync`,
      LANDING_SYNC_API_KEY: SYNC_KEY,
    });
    await waitFor(() => log.lines.some((l) => l.includes('waits for landing to listen')));
    await new Promise((resolve) => setTimeout(resolve, 1200)); // a few probes, still refused
    await standIn.up();
    const row = await waitFor(async () => {
      const r = await access();
      return r.last_status === 'ok' && r;
    });
    expect(row.last_error).toBeNull();
    expect(standIn.received).toHaveLength(1);
    // Done, at the first attempt: no failure was logged (graphile-worker logs each as an error).
    await waitFor(
      async () => !(await jobsOf(database, 'erp_sync')).some((j) => j.key === 'erp_sync'),
    );
    const levels = log.lines.map((l) => JSON.parse(l) as { level: string; message: string });
    expect(levels.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    expect(levels.filter((l) => l.message.includes('waits for landing'))).toHaveLength(1);
  });
});

describe('start-up', () => {
  it('warns of nothing with the default concurrency (the pool is sized to it)', async () => {
    await start({ WORKER_CONCURRENCY: '50' });
    const warnings = log.lines.filter((l) => /"level":"(warn|error)"/.test(l));
    expect(warnings).toEqual([]);
    expect(log.lines.some((l) => l.includes('"message":"worker started"'))).toBe(true);
  });
});
