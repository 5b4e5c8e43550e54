import { jobs, WEBHOOK_DISABLE_FAILED_DELIVERIES } from '@erp/contract';
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

/**
 * SPEC §12: endpoints that keep failing are disabled. The thresholds (5 days, 500 deliveries)
 * are reached by seeding the subscription's counters, or by a worker whose clock runs ahead,
 * never by waiting.
 */
let database: TestDatabase;
let worker: RunningWorker;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await runWorker(database, { WEBHOOK_RETRY_BASE_SECONDS: '60' });
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

type Health = {
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  consecutive_failures: number;
};

async function health(id: string): Promise<Health> {
  const { rows } = await database.pool.query<Health>(
    `SELECT enabled, disabled_reason, disabled_at, failing_since, consecutive_failures
     FROM webhook_subscriptions WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

async function seed(id: string, failures: number, failingSince: Date | null) {
  await database.pool.query(
    'UPDATE webhook_subscriptions SET consecutive_failures = $2, failing_since = $3 WHERE id = $1',
    [id, failures, failingSince],
  );
}

async function auditRows(subscriptionId: string) {
  const { rows } = await database.pool.query(
    `SELECT tenant_id, action, actor_type, actor_id, target_type, address, details
     FROM audit_log WHERE target_id = $1 ORDER BY id`,
    [subscriptionId],
  );
  return rows;
}

/** A delivery about to make its last (20th) attempt: the next failure ends it `failed`. */
async function lastAttemptDelivery(tenantId: string, subscriptionId: string) {
  // An event no subscription wants, so no fan-out races the delivery made here.
  const eventId = await recordEvent(database, tenantId, 'quote.created');
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type, attempts)
     VALUES ($1, $2, $3, 'quote.created', 19) RETURNING id`,
    [tenantId, subscriptionId, eventId],
  );
  return rows[0]!.id;
}

async function failingEndpoint() {
  const receiver = await startReceiver(() => ({ status: 500 }));
  const tenant = await createTenant(database);
  const sub = await createSubscription(database, tenant, receiver.url, [
    'sales_order.created',
    'sales_order.status_changed',
  ]);
  return { receiver, tenant, sub };
}

describe('failing endpoints', () => {
  it('a failed attempt starts failing_since; a delivery that uses up its retries counts; a success resets both', async () => {
    let answer = 500;
    const receiver = await startReceiver(() => ({ status: answer }));
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url, [
      'sales_order.created',
      'sales_order.status_changed',
    ]);
    const before = new Date();
    const eventId = await recordEvent(database, tenant);
    await waitFor(async () => (await deliveryLog(database, eventId))[0]?.attempts === 1);
    const first = await health(sub.id);
    expect(first.failing_since!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5);
    expect(first.consecutive_failures).toBe(0);
    expect(first.enabled).toBe(true);

    const last = await lastAttemptDelivery(tenant, sub.id);
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: last, attempt: 20 } },
    ]);
    await waitFor(async () => (await health(sub.id)).consecutive_failures === 1);
    // The run of failures began with the first failed attempt, not the last.
    expect((await health(sub.id)).failing_since).toEqual(first.failing_since);

    answer = 200;
    const ok = await recordEvent(database, tenant);
    await waitFor(async () => (await deliveryLog(database, ok))[0]?.status === 'delivered');
    expect(await health(sub.id)).toMatchObject({
      enabled: true,
      failing_since: null,
      consecutive_failures: 0,
    });
    expect(await auditRows(sub.id)).toEqual([]);
    await receiver.close();
  });

  it(`${WEBHOOK_DISABLE_FAILED_DELIVERIES} deliveries in a row that end failed disable it, with its audit row; 499 do not`, async () => {
    const { receiver, tenant, sub } = await failingEndpoint();
    const since = new Date(Date.now() - 3_600_000);
    await seed(sub.id, WEBHOOK_DISABLE_FAILED_DELIVERIES - 2, since);
    const first = await lastAttemptDelivery(tenant, sub.id);
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: first, attempt: 20 } },
    ]);
    await waitFor(async () => (await health(sub.id)).consecutive_failures === 499);
    expect((await health(sub.id)).enabled).toBe(true);

    const second = await lastAttemptDelivery(tenant, sub.id);
    await enqueueJobs(database.pool, jobs.webhookDeliver, [
      { payload: { delivery_id: second, attempt: 20 } },
    ]);
    const disabled = await waitFor(async () => {
      const h = await health(sub.id);
      return !h.enabled && h;
    });
    expect(disabled).toMatchObject({
      disabled_reason: 'failed_deliveries',
      consecutive_failures: 500,
      failing_since: since,
    });
    expect(disabled.disabled_at).toBeInstanceOf(Date);
    const audit = await auditRows(sub.id);
    expect(audit).toEqual([
      {
        tenant_id: tenant,
        action: 'webhook.disabled',
        actor_type: null,
        actor_id: null,
        target_type: 'webhook_subscription',
        address: null,
        details: {
          reason: 'failed_deliveries',
          failing_since: expect.any(String),
          consecutive_failures: 500,
        },
      },
    ]);
    expect(new Date(audit[0].details.failing_since)).toEqual(since);

    // Disabled: new events make no delivery at all.
    const later = await recordEvent(database, tenant);
    await new Promise((r) => setTimeout(r, 400));
    expect(await deliveryLog(database, later)).toEqual([]);
    await receiver.close();
  });

  it('every attempt failing for 5 days disables it (failing); 5 days less a minute does not', async () => {
    const { receiver, tenant, sub } = await failingEndpoint();
    await seed(sub.id, 1, new Date(Date.now() - 5 * DAY_MS + 60_000));
    const early = await recordEvent(database, tenant);
    await waitFor(async () => (await deliveryLog(database, early))[0]?.attempts === 1);
    expect((await health(sub.id)).enabled).toBe(true);

    await seed(sub.id, 1, new Date(Date.now() - 5 * DAY_MS - 1000));
    const late = await recordEvent(database, tenant);
    const disabled = await waitFor(async () => {
      const h = await health(sub.id);
      return !h.enabled && h;
    });
    expect(disabled.disabled_reason).toBe('failing');
    expect((await auditRows(sub.id)).map((r) => r.details.reason)).toEqual(['failing']);
    // The delivery that tipped it is scheduled for a retry that will find it disabled.
    expect((await deliveryLog(database, late))[0].status).toBe('pending');
    await receiver.close();
  });

  it('a re-enabled endpoint (count restarted, failing_since kept) is not disabled by its next failure', async () => {
    const { receiver, tenant, sub } = await failingEndpoint();
    // As PATCH enabled=true leaves it: failing for a week, no delivery used up since.
    await seed(sub.id, 0, new Date(Date.now() - 7 * DAY_MS));
    const eventId = await recordEvent(database, tenant);
    await waitFor(async () => (await deliveryLog(database, eventId))[0]?.attempts === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect((await health(sub.id)).enabled).toBe(true);
    await receiver.close();
  });

  it('410 Gone disables it at once with reason gone, when, and an audit row', async () => {
    const receiver = await startReceiver(() => ({ status: 410 }));
    const tenant = await createTenant(database);
    const sub = await createSubscription(database, tenant, receiver.url);
    await recordEvent(database, tenant);
    const disabled = await waitFor(async () => {
      const h = await health(sub.id);
      return !h.enabled && h;
    });
    expect(disabled.disabled_reason).toBe('gone');
    expect(disabled.disabled_at).toBeInstanceOf(Date);
    expect((await auditRows(sub.id)).map((r) => [r.action, r.details.reason])).toEqual([
      ['webhook.disabled', 'gone'],
    ]);
    await receiver.close();
  });

  it('deliveries of one subscription ending together are all counted (one batch, one row)', async () => {
    const { receiver, tenant, sub } = await failingEndpoint();
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await lastAttemptDelivery(tenant, sub.id));
    await enqueueJobs(
      database.pool,
      jobs.webhookDeliver,
      ids.map((id) => ({ payload: { delivery_id: id, attempt: 20 } })),
    );
    await waitFor(async () => (await health(sub.id)).consecutive_failures === 12);
    await new Promise((r) => setTimeout(r, 200));
    expect((await health(sub.id)).consecutive_failures).toBe(12);
    await receiver.close();
  });
});

describe('with the clock 5 days ahead', () => {
  let db2: TestDatabase;
  let ahead: RunningWorker;
  let offset = 0;
  beforeAll(async () => {
    db2 = await createTestDatabase();
    ahead = await runWorker(
      db2,
      { WEBHOOK_RETRY_BASE_SECONDS: '0.002' },
      { now: () => new Date(Date.now() + offset) },
    );
  });
  afterAll(async () => {
    await ahead?.stop();
    await db2?.close();
  });

  it('an endpoint failing since "today" is disabled once the worker’s clock says 5 days later', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    const tenant = await createTenant(db2);
    const sub = await createSubscription(db2, tenant, receiver.url);
    // Twenty fast attempts: the delivery ends failed (one used up), failing since today.
    const first = await recordEvent(db2, tenant);
    await waitFor(async () => (await deliveryLog(db2, first))[0]?.status === 'failed', 20_000);
    const { rows } = await db2.pool.query(
      'SELECT enabled, consecutive_failures FROM webhook_subscriptions WHERE id = $1',
      [sub.id],
    );
    expect(rows[0]).toEqual({ enabled: true, consecutive_failures: 1 });

    offset = 5 * DAY_MS + 60_000;
    await recordEvent(db2, tenant);
    await waitFor(async () => {
      const { rows: now } = await db2.pool.query(
        'SELECT enabled, disabled_reason FROM webhook_subscriptions WHERE id = $1',
        [sub.id],
      );
      return now[0].enabled === false && now[0].disabled_reason === 'failing';
    });
    await receiver.close();
  });
});
