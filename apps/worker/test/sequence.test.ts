import { randomUUID } from 'node:crypto';
import { jobs } from '@erp/contract';
import { enqueueJobs } from '@erp/db';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import {
  createSubscription,
  createTenant,
  recordEvent,
  runWorker,
  startReceiver,
  waitFor,
} from './harness';

/** Webhook bodies carry the event's `sequence`, the one the feed serves (SPEC §12). */
let database: TestDatabase;
let worker: RunningWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await runWorker(database);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

describe('the sequence in webhook bodies', () => {
  it('is the number the feed gives the event, a late commit’s coming after those already sent', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, receiver.url);
    // A transaction that records its event first and commits last.
    const held = await database.pool.connect();
    await held.query('BEGIN');
    const late = await held.query<{ id: string }>(
      `INSERT INTO events (tenant_id, type, resource, resource_id, data)
       VALUES ($1, 'sales_order.created', 'sales_order', $2, '{"object":{}}') RETURNING id`,
      [tenant, randomUUID()],
    );
    const first = await recordEvent(database, tenant);
    const second = await recordEvent(database, tenant);
    await waitFor(() => receiver.received.length === 2);
    await held.query('COMMIT');
    held.release();
    await waitFor(() => receiver.received.length === 3);

    const bodies = receiver.received.map(
      (r) => JSON.parse(r.body) as { id: string; sequence: number },
    );
    const sent = new Map(bodies.map((b) => [b.id, b.sequence]));
    expect(new Set([sent.get(first), sent.get(second)])).toEqual(new Set([1, 2]));
    expect(sent.get(late.rows[0]!.id)).toBe(3);
    const { rows } = await database.pool.query<{ id: string; sequence: string }>(
      'SELECT id, sequence FROM events WHERE tenant_id = $1',
      [tenant],
    );
    expect(new Map(rows.map((r) => [r.id, Number(r.sequence)]))).toEqual(sent);
    await receiver.close();
  });

  it('waits for a number behind a backlog: the delivery leaves with it, never without', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    // More than one numbering call takes (50 000): the fan-out's first call leaves its event
    // without a number, so the job waits (or comes back) until the next call gives it one.
    await database.pool.query(
      `INSERT INTO events (tenant_id, type, resource, resource_id, data)
       SELECT $1, 'sales_order.updated', 'sales_order', gen_random_uuid(), '{"object":{}}'
       FROM generate_series(1, 50001)`,
      [tenant],
    );
    await createSubscription(database, tenant, receiver.url);
    const id = await recordEvent(database, tenant);
    await waitFor(() => receiver.received.length === 1, 60_000);
    const body = JSON.parse(receiver.received[0]!.body);
    expect(body).toMatchObject({ id, sequence: 50_002 });
    await receiver.close();
  }, 90_000);

  it('is absent from a test delivery, which is no business event', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    const { rows } = await database.pool.query<{ id: string }>(
      `WITH ev AS (
         INSERT INTO events (tenant_id, type, resource, resource_id, data)
         VALUES ($1, 'webhook.test', 'webhook_subscription', $2, '{"object":{},"message":"A test delivery."}')
         RETURNING id, type)
       INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type)
       SELECT $1, $2, ev.id, ev.type FROM ev RETURNING id`,
      [tenant, sub.id],
    );
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: rows[0]!.id, attempt: 1, manual: true } },
    ]);
    await waitFor(() => receiver.received.length === 1);
    const body = JSON.parse(receiver.received[0]!.body);
    expect(body.type).toBe('webhook.test');
    expect('sequence' in body).toBe(false);
    const numbered = await database.pool.query(
      'SELECT count(*)::int AS n FROM events WHERE tenant_id = $1 AND sequence IS NOT NULL',
      [tenant],
    );
    expect(numbered.rows[0].n).toBe(0);
    await receiver.close();
  });
});
