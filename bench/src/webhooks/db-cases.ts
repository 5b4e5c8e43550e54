import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { FANOUT, RECORD_ATTEMPTS } from '../../../apps/worker/src/webhooks/statements';
import { recordAttemptsValues } from '../../../apps/worker/src/webhooks/store';
import type { DbCase } from '../lib/db-timing';
import { createSubscriptions, createTenant, type FixtureDeps, insertEvent } from './fixtures';

type Statement = { name: string; text: string };

/** As the worker sends it: named, so prepared on each connection the first time, then bound. */
const asWorker = (statement: Statement, values: unknown[]): pg.QueryConfig => ({
  ...statement,
  values,
});

/** The same text unnamed: parsed and planned again on every call. */
const unnamed = (statement: Statement, values: unknown[]): pg.QueryConfig => ({
  text: statement.text,
  values,
});

/** Ids handed out one per call; running out means the case ran faster than planned for. */
function cursor(ids: string[], label: string) {
  let next = 0;
  return () => {
    const id = ids[next++];
    if (!id) throw new Error(`${label}: the ${ids.length} prepared rows ran out`);
    return id;
  };
}

/** `count` events of the tenant, inserted in one statement, ids in insertion order. */
async function eventsOf(db: pg.Pool, tenantId: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO events (tenant_id, type, resource, resource_id, data)
     SELECT $1, 'sales_order.created', 'sales_order', gen_random_uuid(), '{"object":{"status":"confirme"}}'
     FROM generate_series(1, $2) RETURNING id`,
    [tenantId, count],
  );
  return rows.map((r) => r.id);
}

/** A RECORD_ATTEMPTS call for these deliveries, all answered 200 (as the worker sends it). */
function recordValues(deliveryIds: string[]): unknown[] {
  return recordAttemptsValues(
    deliveryIds.map((deliveryId) => ({
      deliveryId,
      manual: false,
      startedAt: new Date(),
      durationMs: 3,
      status: 200,
      excerpt: 'ok',
      error: null,
      outcome: 'delivered' as const,
      delayMs: null,
    })),
  );
}

/**
 * The database calls of one delivery, each alone: the business INSERT with and without the
 * trigger's enqueueing, then the worker's two statements (apps/worker/src/webhooks/
 * statements.ts) named as the worker sends them and unnamed (parsed and planned on every
 * call), for one delivery and for 100. Run with the worker stopped: the fan-out
 * jobs enqueued here stay in the queue. Fresh events per FANOUT call; RECORD_ATTEMPTS cycles
 * over prepared deliveries (a repeat records one more attempt, the same work).
 */
export async function deliveryDbCases(deps: FixtureDeps, capacity: number): Promise<DbCase[]> {
  const { db } = deps;
  const quiet = await createTenant(db, `wh-db-quiet-${randomUUID().slice(0, 8)}`);
  const one = await createTenant(db, `wh-db-one-${randomUUID().slice(0, 8)}`);
  const hundred = await createTenant(db, `wh-db-hundred-${randomUUID().slice(0, 8)}`);
  // Events first, subscriptions after: the trigger enqueues nothing for these.
  const fanoutEvents = await eventsOf(db, one, capacity * 2);
  const recordEvents = await eventsOf(db, one, 4_000);
  const fanout100Events = await eventsOf(db, hundred, Math.ceil(capacity / 10));
  const [subscription] = await createSubscriptions(deps, one, 1);
  await createSubscriptions(deps, hundred, 100);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type)
     SELECT $1, $2, id, 'sales_order.created' FROM unnest($3::uuid[]) AS id RETURNING id`,
    [one, subscription, recordEvents],
  );
  const deliveries = rows.map((r) => r.id);
  let recorded = 0;
  // Consecutive slices: concurrent callers never share a row.
  const nextDeliveries = (n: number) => {
    recorded += n;
    const start = recorded % (deliveries.length - n);
    return deliveries.slice(start, start + n);
  };
  const unnamedFanout = cursor(fanoutEvents.slice(0, capacity), 'FANOUT unnamed');
  const namedFanout = cursor(fanoutEvents.slice(capacity), 'FANOUT named');
  const fanout100 = cursor(fanout100Events, 'FANOUT 100');
  let n = 0;
  return [
    { name: 'SELECT 1 (round trip)', run: (pool) => pool.query('SELECT 1') },
    {
      name: 'INSERT event, no subscription wants it',
      run: (pool) => insertEvent(pool, quiet, ++n),
    },
    {
      name: 'INSERT event + trigger enqueues its fan-out',
      run: (pool) => insertEvent(pool, one, ++n),
    },
    {
      name: 'FANOUT, 1 delivery (named, as the worker)',
      run: (pool) => pool.query(asWorker(FANOUT, [[namedFanout()]])),
    },
    {
      name: 'FANOUT, 1 delivery, unnamed',
      run: (pool) => pool.query(unnamed(FANOUT, [[unnamedFanout()]])),
    },
    {
      name: 'RECORD_ATTEMPTS, 1 delivery (named, as the worker)',
      run: (pool) => pool.query(asWorker(RECORD_ATTEMPTS, recordValues(nextDeliveries(1)))),
    },
    {
      name: 'RECORD_ATTEMPTS, 1 delivery, unnamed',
      run: (pool) => pool.query(unnamed(RECORD_ATTEMPTS, recordValues(nextDeliveries(1)))),
    },
    {
      name: 'FANOUT, 100 deliveries (named)',
      run: (pool) => pool.query(asWorker(FANOUT, [[fanout100()]])),
    },
    {
      name: 'RECORD_ATTEMPTS, 100 deliveries (named)',
      run: (pool) => pool.query(asWorker(RECORD_ATTEMPTS, recordValues(nextDeliveries(100)))),
    },
  ];
}
