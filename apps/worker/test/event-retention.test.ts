import { randomBytes, randomUUID } from 'node:crypto';
import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { createSubscription, createTenant, runWorker, waitFor } from './harness';
import { addJob, jobsOf, NO_TICK } from './landing-harness';

let database: TestDatabase;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

const DAY = 86_400_000;

/** A UUIDv7 of an instant, as `erp_uuidv7()` would have made it then. */
function uuidAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function eventAt(tenant: string, daysAgo: number, type = 'sales_order.created') {
  const at = new Date(Date.now() - daysAgo * DAY);
  const id = uuidAt(at);
  await database.pool.query(
    `INSERT INTO events (id, tenant_id, type, resource, resource_id, data, created_at, recorded_at)
     VALUES ($1, $2, $3, 'sales_order', $4, '{"object":{}}', $5, $5)`,
    [id, tenant, type, randomUUID(), at],
  );
  return id;
}

it('deletes the events past 30 days that no pending delivery needs, and marks where the feed now starts', async () => {
  const tenant = await createTenant(database);
  // A subscription to something else: no fan-out runs, the deliveries below are written by hand.
  const sub = await createSubscription(database, tenant, 'http://127.0.0.1:9/', [
    'invoice.created',
  ]);
  const delivered = await eventAt(tenant, 40);
  const stillPending = await eventAt(tenant, 39);
  const old = await eventAt(tenant, 31);
  const oldTest = await eventAt(tenant, 35, 'webhook.test');
  const kept = await eventAt(tenant, 29);
  const recent = await eventAt(tenant, 0);
  await database.pool.query('SELECT assign_event_sequences()');
  await database.pool.query(
    `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type, status)
     VALUES ($1, $2, $3, 'sales_order.created', 'delivered'), ($1, $2, $4, 'sales_order.created', 'pending')`,
    [tenant, sub.id, delivered, stillPending],
  );
  const sequences = new Map(
    (
      await database.pool.query<{ id: string; sequence: string }>(
        'SELECT id, sequence FROM events WHERE tenant_id = $1',
        [tenant],
      )
    ).rows.map((r) => [r.id, r.sequence]),
  );

  worker = await runWorker(database, { ERP_SYNC_INTERVAL: NO_TICK });
  await addJob(database, jobs.eventsRetention, {});
  await waitFor(async () => (await jobsOf(database, jobs.eventsRetention.name)).length === 0);

  const { rows } = await database.pool.query<{ id: string }>(
    'SELECT id FROM events WHERE tenant_id = $1 ORDER BY id',
    [tenant],
  );
  expect(new Set(rows.map((r) => r.id))).toEqual(new Set([stillPending, kept, recent]));
  const deliveries = await database.pool.query(
    'SELECT event_id FROM webhook_deliveries WHERE tenant_id = $1',
    [tenant],
  );
  expect(deliveries.rows.map((r) => r.event_id)).toEqual([stillPending]);
  const mark = await database.pool.query(
    'SELECT purged_through::text AS p FROM event_sequences WHERE tenant_id = $1',
    [tenant],
  );
  // The highest number deleted: the feed starts after it (a cursor before it is refused).
  expect(mark.rows[0].p).toBe(
    String(Math.max(Number(sequences.get(delivered)), Number(sequences.get(old)))),
  );
  expect(sequences.get(oldTest)).toBeNull();
});
