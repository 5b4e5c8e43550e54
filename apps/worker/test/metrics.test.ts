import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { parseMetrics, type Sample, sampleValue } from '@erp/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerMetrics } from '../src/runtime/metrics';
import type { RunningWorker } from '../src/worker';
import {
  createSubscription,
  createTenant,
  deliveryLog,
  recordEvent,
  runWorker,
  startReceiver,
  waitFor,
} from './harness';
import { NO_TICK, SYNC_KEY, startStandIn } from './landing-harness';

let database: TestDatabase;
let worker: RunningWorker;
let samples: Sample[];
let scrape: Response;
const closers: (() => Promise<void>)[] = [];

/**
 * A known sequence (the start-up sync push, one event to a subscriber answering 200 and one
 * answering 500, a due job no worker runs), then one scrape of GET /metrics on the health port.
 */
beforeAll(async () => {
  database = await createTestDatabase();
  const landing = await startStandIn(() => ({
    status: 200,
    json: { status: 'applied', counts: { tenants: 1, plans: 0, metadata: 0 } },
  }));
  const ok = await startReceiver(() => ({ status: 200 }));
  const failing = await startReceiver(() => ({ status: 500 }));
  closers.push(landing.close, ok.close, failing.close);
  const tenant = await createTenant(database);
  await createSubscription(database, tenant, ok.url);
  await createSubscription(database, tenant, failing.url);
  // Due five minutes ago, for a task this worker does not run: it waits, and is counted.
  await database.pool.query(
    `SELECT graphile_worker.add_job('not_run_here', '{}'::json, run_at := now() - interval '5 minutes')`,
  );
  worker = await runWorker(database, {
    WORKER_HEALTH_PORT: '0',
    WORKER_HEALTH_HOST: '127.0.0.1',
    // The retry stays scheduled for the whole test.
    WEBHOOK_RETRY_BASE_SECONDS: '3600',
    ERP_SYNC_INTERVAL: NO_TICK,
    LANDING_SYNC_URL: `${landing.origin}/api/erp-sync`,
    LANDING_SYNC_API_KEY: SYNC_KEY,
  });
  const eventId = await recordEvent(database, tenant);
  await waitFor(async () => {
    const rows = await deliveryLog(database, eventId);
    return rows.length === 2 && rows.every((r) => r.attempts === 1) && rows;
  });
  await waitFor(() => landing.received.length === 1);
  // The job:success events follow the records by a moment.
  await waitFor(async () => {
    const text = await (await fetch(`http://127.0.0.1:${worker.health!.port}/metrics`)).text();
    const found = parseMetrics(text);
    return sampleValue(found, 'worker_jobs_total', { task: 'erp_sync', outcome: 'success' }) === 1;
  });
  scrape = await fetch(`http://127.0.0.1:${worker.health!.port}/metrics`);
  samples = parseMetrics(await scrape.clone().text());
});
afterAll(async () => {
  await worker?.stop();
  for (const close of closers) await close();
  await database?.close();
});

describe('worker GET /metrics (its health port)', () => {
  it('answers Prometheus text beside /health', async () => {
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await fetch(`http://127.0.0.1:${worker.health!.port}/health`)).status).toBe(200);
  });

  it('counts webhook attempts by outcome, and their time', () => {
    expect(sampleValue(samples, 'webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(sampleValue(samples, 'webhook_attempts_total', { outcome: 'retry' })).toBe(1);
    expect(sampleValue(samples, 'webhook_attempts_total', { outcome: 'failed' })).toBeUndefined();
    expect(sampleValue(samples, 'webhook_attempt_duration_seconds_count')).toBe(2);
  });

  it('counts jobs by task and outcome', () => {
    expect(
      sampleValue(samples, 'worker_jobs_total', { task: 'erp_sync', outcome: 'success' }),
    ).toBe(1);
    expect(sampleValue(samples, 'worker_job_duration_seconds_count', { task: 'erp_sync' })).toBe(1);
    // First attempts come from the outbox drain, not from jobs.
    expect(
      sampleValue(samples, 'worker_jobs_total', { task: 'webhook_deliver', outcome: 'success' }),
    ).toBeUndefined();
  });

  it('reports the outbox drained: nothing waiting, nothing claimed', () => {
    expect(sampleValue(samples, 'webhook_outbox_events')).toBe(0);
    expect(sampleValue(samples, 'webhook_outbox_oldest_seconds')).toBe(0);
    expect(sampleValue(samples, 'webhook_claimed_deliveries')).toBe(0);
  });

  it('reports the queue: depth by state, and how long the oldest due job has waited', () => {
    const jobs = (task: string, state: string) =>
      sampleValue(samples, 'job_queue_jobs', { task, state });
    expect(jobs('not_run_here', 'ready')).toBe(1);
    expect(jobs('webhook_deliver', 'scheduled')).toBe(1);
    expect(jobs('webhook_deliver', 'ready')).toBe(0);
    // A task of this worker with no job at all is reported, at zero.
    expect(jobs('mail_invitation', 'ready')).toBe(0);
    const oldest = sampleValue(samples, 'job_queue_oldest_ready_seconds', { task: 'not_run_here' });
    expect(oldest).toBeGreaterThanOrEqual(300);
    expect(oldest).toBeLessThan(600);
    expect(
      sampleValue(samples, 'job_queue_oldest_ready_seconds', { task: 'webhook_deliver' }),
    ).toBe(0);
  });

  it('counts sync pushes by status', () => {
    expect(sampleValue(samples, 'erp_sync_pushes_total', { status: 'ok' })).toBe(1);
  });

  it('reports its pool', () => {
    expect(sampleValue(samples, 'db_pool_max_connections', { pool: 'main' })).toBe(8);
    expect(sampleValue(samples, 'db_pool_waiting_queries', { pool: 'main' })).toBe(0);
  });
});

describe('the webhook outbox gauges, with no worker draining', () => {
  let idle: TestDatabase;
  beforeAll(async () => {
    idle = await createTestDatabase();
  });
  afterAll(async () => {
    await idle?.close();
  });

  it("count the events a watched tenant waits for, the oldest one's wait, and the claimed deliveries", async () => {
    const watched = await createTenant(idle);
    const unwatched = await createTenant(idle);
    await createSubscription(idle, watched, 'http://127.0.0.1:9/hooks');
    for (let i = 0; i < 3; i++) await recordEvent(idle, watched);
    // A tenant nobody watches has no cursor: its events are no backlog.
    for (let i = 0; i < 4; i++) await recordEvent(idle, unwatched);
    await idle.pool.query('SELECT assign_event_sequences()');
    await idle.pool.query(
      `UPDATE events SET recorded_at = now() - interval '2 minutes' WHERE tenant_id = $1 AND sequence = 1`,
      [watched],
    );
    await idle.pool.query(
      `INSERT INTO webhook_claims (process_id, delivery_ids, tenant_ids, event_ids, subscription_ids)
       VALUES ('gone', ARRAY[gen_random_uuid(), gen_random_uuid()], ARRAY[gen_random_uuid(), gen_random_uuid()],
         ARRAY[gen_random_uuid(), gen_random_uuid()], ARRAY[gen_random_uuid(), gen_random_uuid()])`,
    );
    const { EventEmitter } = await import('node:events');
    const metrics = createWorkerMetrics({
      pool: idle.pool,
      events: new EventEmitter() as never,
      tasks: () => [],
    });
    const found = parseMetrics(await metrics.registry.metrics());
    expect(sampleValue(found, 'webhook_outbox_events')).toBe(3);
    const oldest = sampleValue(found, 'webhook_outbox_oldest_seconds')!;
    expect(oldest).toBeGreaterThanOrEqual(120);
    expect(oldest).toBeLessThan(600);
    expect(sampleValue(found, 'webhook_claimed_deliveries')).toBe(2);
  });
});
