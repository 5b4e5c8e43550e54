import { jobs } from '@erp/contract';
import { enqueueJobs } from '@erp/db';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let database: TestDatabase;
let worker: RunningWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  // Retry delays of 0.3 s × attempt², a 500 ms timeout per attempt.
  worker = await runWorker(database, {
    WEBHOOK_RETRY_BASE_SECONDS: '0.3',
    WEBHOOK_TIMEOUT_MS: '500',
  });
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

async function setup(respond: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(respond);
  const tenant = await createTenant(database);
  const sub = await createSubscription(database, tenant, receiver.url);
  const eventId = await recordEvent(database, tenant);
  return { receiver, tenant, sub, eventId };
}

describe('retries', () => {
  it('a receiver failing twice then succeeding gets three attempts with growing delays and one delivered entry; a manual retry keeps the delivery id', async () => {
    const { receiver, eventId } = await setup((_r, i) => ({ status: i < 2 ? 500 : 200 }));
    const [delivery] = await waitFor(async () => {
      const rows = await deliveryLog(database, eventId);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(receiver.received).toHaveLength(3);
    const [first, second, third] = receiver.received.map((r) => r.at);
    const gap1 = second! - first!;
    const gap2 = third! - second!;
    // 0.3 s × 1² and 0.3 s × 2², each −10 % at worst, counted from when the worker began the
    // attempt: the receiver notes an attempt a little later, up to tens of ms on a loaded
    // machine, hence the slack. Only lower bounds: a busy machine delays attempts (a gap of
    // 0.9 s for the first was seen), so a ratio of the two gaps says nothing about the schedule.
    expect(gap1).toBeGreaterThanOrEqual(220);
    expect(gap2).toBeGreaterThanOrEqual(1030);
    expect(delivery.attempts).toBe(3);
    expect(delivery.attempt_log.map((a: { response_status: number }) => a.response_status)).toEqual(
      [500, 500, 200],
    );
    const ids = new Set(receiver.received.map((r) => r.headers['x-service-delivery-id']));
    expect(ids).toEqual(new Set([delivery.id]));
    // A fresh timestamp (and so signature) on every attempt.
    const stamps = receiver.received.map((r) => Number(r.headers['x-service-timestamp']));
    expect(stamps[2]).toBeGreaterThan(stamps[0]!);
    expect(receiver.received[2]!.headers['x-service-signature']).not.toBe(
      receiver.received[0]!.headers['x-service-signature'],
    );
    const { rows: entries } = await database.pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1 AND status = 'delivered'`,
      [eventId],
    );
    expect(entries[0].n).toBe(1);

    // A manual replay, as the portal enqueues it: same delivery id, a new attempt, marked manual.
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: delivery.id, attempt: 4, manual: true } },
    ]);
    await waitFor(() => receiver.received.length === 4);
    expect(receiver.received[3]!.headers['x-service-delivery-id']).toBe(delivery.id);
    const [after] = await waitFor(async () => {
      const rows = await deliveryLog(database, eventId);
      return rows[0]?.attempts === 4 && rows;
    });
    expect(after.attempt_log[3].manual).toBe(true);
    expect(after.status).toBe('delivered');
    // A stale job (its attempt already recorded) does nothing.
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: delivery.id, attempt: 2 } },
    ]);
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toHaveLength(4);
    await receiver.close();
  });

  it('410 Gone disables the subscription and ends the delivery', async () => {
    const { receiver, sub, eventId } = await setup(() => ({ status: 410 }));
    const [delivery] = await waitFor(async () => {
      const rows = await deliveryLog(database, eventId);
      return rows[0]?.status === 'failed' && rows;
    });
    expect(delivery.attempts).toBe(1);
    const { rows } = await database.pool.query(
      'SELECT enabled, disabled_reason FROM webhook_subscriptions WHERE id = $1',
      [sub.id],
    );
    expect(rows[0]).toEqual({ enabled: false, disabled_reason: 'gone' });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('honours Retry-After on 429 when it asks for longer than the schedule', async () => {
    const { receiver, eventId } = await setup((_r, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    await waitFor(async () => (await deliveryLog(database, eventId))[0]?.status === 'delivered');
    const gap = receiver.received[1]!.at - receiver.received[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(1950);
    await receiver.close();
  });

  it('a slow receiver times out; a huge answer is cut to an excerpt', async () => {
    const slow = await startReceiver();
    // Answer after the timeout: the server holds the response.
    const hanging = await new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
      import('node:http').then(({ createServer }) => {
        const server = createServer((_req, res) => setTimeout(() => res.end('late'), 2000));
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          resolve({
            url: `http://127.0.0.1:${port}/`,
            close: () =>
              new Promise((r) => {
                server.closeAllConnections();
                server.close(() => r());
              }),
          });
        });
      });
    });
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, hanging.url);
    const eventId = await recordEvent(database, tenant);
    const [timedOut] = await waitFor(async () => {
      const rows = await deliveryLog(database, eventId);
      return rows[0]?.attempts >= 1 && rows;
    });
    expect(timedOut.attempt_log[0].error).toMatch(/^timeout/);
    expect(timedOut.attempt_log[0].response_status).toBeNull();
    expect(timedOut.attempt_log[0].duration_ms).toBeLessThan(1500);
    await hanging.close();
    await slow.close();

    const big = await startReceiver(() => ({ status: 200, body: 'x'.repeat(1_000_000) }));
    const tenant2 = await createTenant(database);
    await createSubscription(database, tenant2, big.url);
    const event2 = await recordEvent(database, tenant2);
    const [cut] = await waitFor(async () => {
      const rows = await deliveryLog(database, event2);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(cut.attempt_log[0].response_excerpt).toHaveLength(1024);
    await big.close();
  });
});

describe('exhaustion', () => {
  let db2: TestDatabase;
  let fast: RunningWorker;
  beforeAll(async () => {
    db2 = await createTestDatabase();
    fast = await runWorker(db2, { WEBHOOK_RETRY_BASE_SECONDS: '0.002' });
  });
  afterAll(async () => {
    await fast?.stop();
    await db2?.close();
  });

  it('stops after 20 attempts and marks the delivery failed', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const tenant = await createTenant(db2);
    await createSubscription(db2, tenant, receiver.url);
    const eventId = await recordEvent(db2, tenant);
    const [failed] = await waitFor(async () => {
      const rows = await deliveryLog(db2, eventId);
      return rows[0]?.status === 'failed' && rows;
    }, 20_000);
    expect(failed.attempts).toBe(20);
    expect(failed.next_attempt_at).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(20);
    await receiver.close();
  });
});
