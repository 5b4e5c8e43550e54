import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  CLAIM_EVENTS,
  OUTBOX_READY,
  RECORD_ATTEMPTS,
} from '../../../apps/worker/src/webhooks/statements';
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

/**
 * A RECORD_ATTEMPTS call for these deliveries, all answered 200, as the worker records a later
 * attempt (a retry, a replay) of a delivery already written: it updates the row and, from the
 * second attempt, writes the attempt log. (A first attempt inserts the delivery instead.)
 */
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
      claimed: null,
    })),
  );
}

/** A process id no heartbeat names: the claims made here are never attempted. */
const BENCH_PROCESS = 'bench-db-cases';

/**
 * A CLAIM_EVENTS case: one tenant with `subscriptions` subscriptions and `events` numbered
 * events, staged at its first call, every other cursor caught up meanwhile so that each claim
 * takes this tenant's next event. One caller: a second would skip the cursor the first holds.
 */
function claimCase(
  deps: FixtureDeps,
  name: string,
  shape: { subscriptions: number; events: number; named: boolean },
): DbCase {
  let staged: Promise<void> | undefined;
  const stage = async () => {
    const tenant = await createTenant(deps.db, `wh-db-claim-${randomUUID().slice(0, 8)}`);
    await createSubscriptions(deps, tenant, shape.subscriptions);
    await eventsOf(deps.db, tenant, shape.events);
    await deps.db.query('SELECT assign_event_sequences()');
    await deps.db.query(
      'UPDATE webhook_cursors SET fanned_through = numbered_through WHERE tenant_id <> $1',
      [tenant],
    );
  };
  const values = [BENCH_PROCESS, shape.subscriptions, 500, 1];
  return {
    name,
    concurrencies: [1],
    run: async (pool) => {
      staged ??= stage();
      await staged;
      const call = shape.named ? asWorker(CLAIM_EVENTS, values) : unnamed(CLAIM_EVENTS, values);
      const { rows } = await pool.query<{ moved: number }>(call);
      if (!rows[0]?.moved) throw new Error(`${name}: the ${shape.events} prepared events ran out`);
    },
  };
}

/**
 * The database calls of one delivery, each alone: the business INSERT for a tenant nobody
 * watches and for one a subscription watches (the same statement: any difference is noise),
 * the drain's idle poll, then the worker's two statements (apps/worker/src/webhooks/
 * statements.ts) named as the worker sends them and unnamed (parsed and planned on every
 * call): CLAIM_EVENTS taking one event for one subscription, or one for 100, and
 * RECORD_ATTEMPTS for one delivery and for 100. Run with the worker stopped. RECORD_ATTEMPTS
 * cycles over prepared deliveries (a repeat records one more attempt, the same work).
 */
export async function deliveryDbCases(deps: FixtureDeps, capacity: number): Promise<DbCase[]> {
  const { db } = deps;
  const quiet = await createTenant(db, `wh-db-quiet-${randomUUID().slice(0, 8)}`);
  const watched = await createTenant(db, `wh-db-watched-${randomUUID().slice(0, 8)}`);
  const one = await createTenant(db, `wh-db-one-${randomUUID().slice(0, 8)}`);
  await createSubscriptions(deps, watched, 1);
  const [subscription] = await createSubscriptions(deps, one, 1);
  const recordEvents = await eventsOf(db, one, 4_000);
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
  let n = 0;
  return [
    { name: 'SELECT 1 (round trip)', run: (pool) => pool.query('SELECT 1') },
    {
      name: 'INSERT event, no subscription wants it',
      run: (pool) => insertEvent(pool, quiet, ++n),
    },
    {
      name: 'INSERT event, a subscription wants it',
      run: (pool) => insertEvent(pool, watched, ++n),
    },
    {
      name: 'OUTBOX_READY, the idle poll (named)',
      run: (pool) => pool.query(asWorker(OUTBOX_READY, [])),
    },
    claimCase(deps, 'CLAIM_EVENTS, 1 event × 1 subscription (named, as the worker)', {
      subscriptions: 1,
      events: capacity,
      named: true,
    }),
    claimCase(deps, 'CLAIM_EVENTS, 1 event × 1 subscription, unnamed', {
      subscriptions: 1,
      events: capacity,
      named: false,
    }),
    {
      name: 'RECORD_ATTEMPTS, 1 delivery (named, as the worker)',
      run: (pool) => pool.query(asWorker(RECORD_ATTEMPTS, recordValues(nextDeliveries(1)))),
    },
    {
      name: 'RECORD_ATTEMPTS, 1 delivery, unnamed',
      run: (pool) => pool.query(unnamed(RECORD_ATTEMPTS, recordValues(nextDeliveries(1)))),
    },
    claimCase(deps, 'CLAIM_EVENTS, 1 event × 100 subscriptions (named)', {
      subscriptions: 100,
      events: Math.ceil(capacity / 10),
      named: true,
    }),
    {
      name: 'RECORD_ATTEMPTS, 100 deliveries (named)',
      run: (pool) => pool.query(asWorker(RECORD_ATTEMPTS, recordValues(nextDeliveries(100)))),
    },
  ];
}
