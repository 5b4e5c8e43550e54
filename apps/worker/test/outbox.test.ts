import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_CHANNEL } from '../src/webhooks/outbox';
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

/** The outbox drain: shared by several workers, woken by a write only while they sleep. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

/** Until a sleeping worker has armed the wake-up (it listens, and writes NOTIFY it). */
function armed() {
  return waitFor(async () => {
    const { rows } = await database.pool.query(
      'SELECT armed_until > now() AS armed FROM webhook_outbox_wake',
    );
    return rows[0]?.armed === true;
  });
}

describe('the outbox drain', () => {
  it('three workers share the work: every delivery once, each worker some of them', async () => {
    const EVENTS = 300;
    const receiver = await startReceiver();
    const tenants = await Promise.all([0, 1, 2].map(() => createTenant(database)));
    for (const tenant of tenants) {
      await createSubscription(database, tenant, receiver.url);
      await createSubscription(database, tenant, `${receiver.url}?second`);
    }
    // Queued before the workers start: all three find a backlog.
    for (let i = 0; i < EVENTS; i++) await recordEvent(database, tenants[i % 3]!);
    const workers: RunningWorker[] = [];
    try {
      workers.push(
        ...(await Promise.all(
          [0, 1, 2].map(() => runWorker(database, { WEBHOOK_CONCURRENCY: '16' })),
        )),
      );
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS n FROM webhook_deliveries`,
        );
        return rows[0].n === EVENTS * 2;
      }, 60_000);
      const ids = receiver.received.map((r) => String(r.headers['x-service-delivery-id']));
      expect(ids).toHaveLength(EVENTS * 2);
      expect(new Set(ids).size).toBe(EVENTS * 2);
      const shares = workers.map((w) => w.outbox.stats().deliveries);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(EVENTS * 2);
      for (const share of shares) expect(share).toBeGreaterThan(0);
      const { rows } = await database.pool.query(
        'SELECT sum(attempts)::int AS attempts, (SELECT count(*)::int FROM webhook_claims) AS claims FROM webhook_deliveries',
      );
      expect(rows[0]).toEqual({ attempts: EVENTS * 2, claims: 0 });
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await receiver.close();
    }
  }, 120_000);

  it('a write NOTIFYs only while a worker sleeps: disarmed, none; the lease running out, none', async () => {
    const tenant = await createTenant(database);
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.channel));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
    const settle = () => new Promise((r) => setTimeout(r, 150));
    const arm = (ms: number | null) =>
      database.pool.query(
        `INSERT INTO webhook_outbox_wake (armed_until) VALUES (now() + $1 * interval '1 millisecond')
         ON CONFLICT (one) DO UPDATE SET armed_until = excluded.armed_until`,
        [ms],
      );
    try {
      await arm(60_000);
      await recordEvent(database, tenant);
      await settle();
      expect(heard).toEqual([OUTBOX_CHANNEL]);
      await arm(null);
      await recordEvent(database, tenant);
      await recordEvent(database, tenant);
      await settle();
      expect(heard).toHaveLength(1);
      await arm(1); // a sleeping worker that died: its lease is over
      await settle();
      await recordEvent(database, tenant);
      await settle();
      expect(heard).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });

  /**
   * A worker asleep (polling every 10 s, its wake-up armed), `meanwhile` done to it, then one
   * event written: delivered within 5 s, which only a wake-up can do. The lease is armed only
   * once the worker LISTENs (else a write right after start could NOTIFY nobody).
   */
  async function deliveredToSleepingWorker(meanwhile: () => Promise<void> = async () => {}) {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, receiver.url);
    const worker = await runWorker(database, { WORKER_POLL_INTERVAL_MS: '10000' });
    try {
      await armed();
      await meanwhile();
      const eventId = await recordEvent(database, tenant);
      await waitFor(
        async () => (await deliveryLog(database, eventId))[0]?.status === 'delivered',
        5000,
      );
      expect(receiver.received).toHaveLength(1);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  }

  it('a sleeping worker is woken by the first write: no wait for its poll', async () => {
    await deliveredToSleepingWorker();
  });

  it('a sleeping worker that loses its listener looks at the outbox as soon as it listens again', async () => {
    // Written while nobody listens, the event's NOTIFY is lost. The listener comes back a second
    // later and the drain looks then, not at its next poll ten seconds on.
    await deliveredToSleepingWorker(async () => {
      // The wake-up row may still be armed by an earlier test's worker: wait for this one's
      // listener itself before cutting it.
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE application_name = 'worker-listen' AND datname = current_database()`,
        );
        return rows.length === 1;
      });
      const { rows } = await database.pool.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
         WHERE application_name = 'worker-listen' AND datname = current_database()`,
      );
      expect(rows).toEqual([{ ok: true }]);
    });
  });

  it('events recorded while the subscription is disabled are not delivered after it is enabled again', async () => {
    const receiver = await startReceiver();
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    const setEnabled = (enabled: boolean) =>
      database.pool.query('UPDATE webhook_subscriptions SET enabled = $2 WHERE id = $1', [
        sub.id,
        enabled,
      ]);
    const worker = await runWorker(database);
    try {
      await setEnabled(false);
      const whileDisabled = await recordEvent(database, tenant);
      // The worker moves past it (its cursor), wanted by nobody then.
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          'SELECT fanned_through = numbered_through AND numbered_through > 0 AS caught_up FROM webhook_cursors WHERE tenant_id = $1',
          [tenant],
        );
        return rows[0]?.caught_up === true;
      });
      await setEnabled(true);
      const afterwards = await recordEvent(database, tenant);
      await waitFor(
        async () => (await deliveryLog(database, afterwards))[0]?.status === 'delivered',
      );
      expect(await deliveryLog(database, whileDisabled)).toEqual([]);
      expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([afterwards]);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });
});
