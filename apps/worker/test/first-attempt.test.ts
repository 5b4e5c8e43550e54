import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AttemptRecord, createDeliveryStore, type DeliveryStore } from '../src/webhooks/store';
import { createSubscription, createTenant, recordEvent } from './harness';

/**
 * Migration 0049: a claimed delivery is held by its claim and written once, by the statement
 * that records its first attempt (the store's own statements on a real PostgreSQL).
 */
let database: TestDatabase;
let store: DeliveryStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = createDeliveryStore(database.pool);
});
afterAll(() => database?.close());

const LIMITS = { deliveries: 50, events: 50, tenants: 4 };

/** A tenant whose `events` events are wanted by `subscriptions` subscriptions, claimed. */
async function claimed(events: number, subscriptions: number) {
  const tenant = await createTenant(database);
  for (let i = 0; i < subscriptions; i++)
    await createSubscription(database, tenant, `http://127.0.0.1:9/hook?${i}`);
  for (let i = 0; i < events; i++) await recordEvent(database, tenant);
  await store.ready();
  const { claimed } = await store.claim('first-attempt-test', LIMITS);
  if (!claimed) throw new Error('nothing claimed');
  return { tenant, claim: claimed };
}

function delivered(claim: NonNullable<Awaited<ReturnType<typeof claimed>>['claim']>) {
  return claim.targets.map(
    (t): AttemptRecord => ({
      deliveryId: t.delivery_id,
      manual: false,
      startedAt: new Date(),
      durationMs: 12,
      status: 200,
      excerpt: 'ok',
      error: null,
      outcome: 'delivered',
      delayMs: null,
      claimed: { tenantId: t.tenant_id, subscriptionId: t.subscription_id, eventId: t.event_id },
    }),
  );
}

async function rowsOf(tenant: string) {
  const { rows } = await database.pool.query(
    `SELECT d.id, d.status, d.attempts, d.first_manual, d.first_duration_ms, d.first_response_status,
       d.first_response_excerpt, d.first_started_at IS NOT NULL AS first_started,
       (SELECT count(*)::int FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS logged
     FROM webhook_deliveries d WHERE d.tenant_id = $1 ORDER BY d.id`,
    [tenant],
  );
  return rows;
}

async function claimsLeft(claimId: string) {
  const { rows } = await database.pool.query(
    'SELECT count(*)::int AS n FROM webhook_claims WHERE id = $1',
    [claimId],
  );
  return rows[0].n as number;
}

describe('a claimed delivery', () => {
  it('is not written when claimed; its first attempt’s record writes it once, the attempt in its row', async () => {
    const { tenant, claim } = await claimed(3, 2);
    expect(claim.targets).toHaveLength(6);
    expect(await rowsOf(tenant)).toEqual([]);
    const { rows: held } = await database.pool.query(
      `SELECT cardinality(delivery_ids) AS n, tenant_ids[1] AS tenant FROM webhook_claims WHERE id = $1`,
      [claim.claimId],
    );
    expect(held).toEqual([{ n: 6, tenant }]);

    await store.record(delivered(claim), [claim.claimId]);
    const rows = await rowsOf(tenant);
    expect(rows.map((r) => r.id)).toEqual(claim.targets.map((t) => t.delivery_id).sort());
    for (const row of rows)
      expect(row).toMatchObject({
        status: 'delivered',
        attempts: 1,
        first_manual: false,
        first_duration_ms: 12,
        first_response_status: 200,
        first_response_excerpt: 'ok',
        first_started: true,
        logged: 0,
      });
    expect(await claimsLeft(claim.claimId)).toBe(0);
  });

  it('recorded twice (a worker taking over the claim of one still alive) is written once', async () => {
    const { tenant, claim } = await claimed(2, 1);
    const records = delivered(claim);
    await store.record(records, [claim.claimId]);
    await store.record(records, [claim.claimId]);
    const rows = await rowsOf(tenant);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.attempts === 1 && r.logged === 0)).toBe(true);
  });

  it('whose subscription was deleted before the record is not written, and the claim is released', async () => {
    const { tenant, claim } = await claimed(2, 2);
    const gone = claim.targets[0]!.subscription_id;
    await database.pool.query('DELETE FROM webhook_subscriptions WHERE id = $1', [gone]);
    await store.record(delivered(claim), [claim.claimId]);
    const rows = await rowsOf(tenant);
    expect(rows).toHaveLength(2);
    const { rows: subs } = await database.pool.query(
      'SELECT DISTINCT subscription_id FROM webhook_deliveries WHERE tenant_id = $1',
      [tenant],
    );
    expect(subs.map((s) => s.subscription_id)).not.toContain(gone);
    expect(await claimsLeft(claim.claimId)).toBe(0);
  });

  it('a later attempt updates the row and goes to the attempt log', async () => {
    const { tenant, claim } = await claimed(1, 1);
    const [first] = delivered(claim);
    await store.record(
      [{ ...first!, status: 500, excerpt: 'boom', outcome: 'retry', delayMs: 60_000 }],
      [claim.claimId],
    );
    await store.record([{ ...first!, manual: true, durationMs: 5, claimed: null }]);
    const [row] = await rowsOf(tenant);
    expect(row).toMatchObject({
      status: 'delivered',
      attempts: 2,
      first_response_status: 500,
      first_response_excerpt: 'boom',
      logged: 1,
    });
  });
});
