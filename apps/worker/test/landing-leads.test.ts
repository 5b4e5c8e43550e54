import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardLeadHandler } from '../src/landing/forward-lead';
import { createOutbound } from '../src/landing/outbound';
import type { RunningWorker } from '../src/worker';
import { runWorker, waitFor } from './harness';
import {
  addJob,
  captureLogger,
  INTERNAL_KEY,
  jobsOf,
  NO_TICK,
  retryNow,
  startStandIn,
} from './landing-harness';

const TASK = jobs.forwardLead;

let database: TestDatabase;
let worker: RunningWorker;
let portal: Awaited<ReturnType<typeof startStandIn>>;
const log = captureLogger();

beforeAll(async () => {
  database = await createTestDatabase();
  portal = await startStandIn();
  worker = await runWorker(
    database,
    { ERP_SYNC_INTERVAL: NO_TICK, PORTAL_URL: portal.origin, SAAS_INTERNAL_API_KEY: INTERNAL_KEY },
    { logger: log.logger },
  );
});
afterAll(async () => {
  await worker?.stop();
  await portal?.close();
  await database?.close();
  expect(log.text()).not.toContain(INTERNAL_KEY);
});

async function storeLead(): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO landing.leads (kind, name, email, company, phone, message, details, client_address)
     VALUES ('demo', 'Ada', 'ada@example.test', 'Analytical', NULL, 'Show me', '{"team_size": 12, "modules": "sales,crm"}', '203.0.113.9')
     RETURNING id`,
  );
  return rows[0]!.id;
}

async function lead(id: string) {
  const { rows } = await database.pool.query('SELECT * FROM landing.leads WHERE id = $1', [id]);
  return rows[0];
}

const idle = () => waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);

describe('landing_forward_lead', () => {
  it('forwards the lead once, even when its job runs twice', async () => {
    portal.answer(() => ({ status: 201, json: {} }));
    const id = await storeLead();
    await addJob(database, TASK, { lead_id: id });
    const row = await waitFor(async () => {
      const r = await lead(id);
      return r.forwarded_at ? r : undefined;
    });
    await idle();
    await addJob(database, TASK, { lead_id: id });
    await idle();
    expect(portal.received).toHaveLength(1);
    const [request] = portal.received;
    expect(request!.path).toBe('/api/v1/internal/leads');
    expect(request!.headers['x-api-key']).toBe(INTERNAL_KEY);
    expect(request!.json).toEqual({
      id,
      kind: 'demo',
      name: 'Ada',
      email: 'ada@example.test',
      company: 'Analytical',
      phone: null,
      message: 'Show me',
      details: { team_size: 12, modules: 'sales,crm' },
      submitted_at: row.created_at.toISOString(),
    });
  });

  it('a 5xx is retried; a later 200 (a replay for the portal) marks it forwarded', async () => {
    portal.answer((_r, i) => (i === 0 ? { status: 502 } : { status: 200, json: {} }));
    const id = await storeLead();
    await addJob(database, TASK, { lead_id: id });
    const [job] = await waitFor(async () => {
      const jobs = await jobsOf(database, TASK.name);
      return jobs[0]?.attempts === 1 && !jobs[0].locked_at && jobs;
    });
    expect(job!.last_error).toMatch(/leads answered 502/);
    expect((await lead(id)).forwarded_at).toBeNull();
    await retryNow(database, TASK.name);
    await waitFor(async () => (await lead(id)).forwarded_at ?? undefined);
    expect(portal.received).toHaveLength(2);
  });

  it('a permanent 4xx is logged and not retried; the lead stays unforwarded', async () => {
    portal.answer(() => ({ status: 422, json: { code: 'requete_invalide' } }));
    const id = await storeLead();
    await addJob(database, TASK, { lead_id: id });
    await idle();
    expect(portal.received).toHaveLength(1);
    expect((await lead(id)).forwarded_at).toBeNull();
    expect(log.lines.some((l) => l.includes('portal refused a lead') && l.includes(id))).toBe(true);
  });

  it('without PORTAL_URL or SAAS_INTERNAL_API_KEY the job throws a clear message (retried until configured)', async () => {
    const id = await storeLead();
    const outbound = createOutbound({ timeoutMs: 1000 });
    const task = forwardLeadHandler({
      pool: database.pool,
      outbound,
      env: { PORTAL_URL: portal.origin },
      logger: log.logger,
      now: () => new Date(),
    });
    await expect(task({ lead_id: id })).rejects.toThrow(
      /PORTAL_URL and SAAS_INTERNAL_API_KEY must both be set/,
    );
    await outbound.close();
    expect((await lead(id)).forwarded_at).toBeNull();
  });
});
