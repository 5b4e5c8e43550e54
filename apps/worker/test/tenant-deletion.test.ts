import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * A tenant's deletion takes its deliveries and their attempts with it: through their events'
 * and subscriptions' cascades, since they hold no direct reference to the tenant (migration
 * 0045).
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('deleting a tenant', () => {
  it('deletes its webhook deliveries and their attempts, and no other tenant’s', async () => {
    const receiver = await startReceiver();
    const [gone, kept] = [await createTenant(database), await createTenant(database)];
    for (const tenant of [gone, kept]) await createSubscription(database, tenant, receiver.url);
    const worker = await runWorker(database);
    try {
      const events = [await recordEvent(database, gone), await recordEvent(database, kept)];
      for (const id of events)
        await waitFor(
          async () => (await deliveryLog(database, id))[0]?.status === 'delivered',
          15_000,
        );
    } finally {
      await worker.stop();
      await receiver.close();
    }
    const count = async (tenant: string) =>
      (
        await database.pool.query<{ deliveries: number; attempts: number }>(
          `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1) AS deliveries,
                  -- The attempt log: first attempts in their delivery's row, later ones logged.
                  (SELECT count(*)::int FROM webhook_deliveries WHERE tenant_id = $1 AND first_started_at IS NOT NULL)
                    + (SELECT count(*)::int FROM webhook_delivery_attempts WHERE tenant_id = $1) AS attempts`,
          [tenant],
        )
      ).rows[0];
    expect(await count(gone)).toEqual({ deliveries: 1, attempts: 1 });
    await database.pool.query('DELETE FROM tenants WHERE id = $1', [gone]);
    expect(await count(gone)).toEqual({ deliveries: 0, attempts: 0 });
    expect(await count(kept)).toEqual({ deliveries: 1, attempts: 1 });
  }, 60_000);
});
