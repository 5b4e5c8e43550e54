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
 * DATABASE_POOLER=transaction (SPEC §19): the worker's `app.worker` flag set with SET LOCAL in
 * each transaction (what Citus propagates), nothing left on a connection between them.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

async function deliverOne(pooler: 'none' | 'transaction') {
  const receiver = await startReceiver();
  const tenant = await createTenant(database);
  await createSubscription(database, tenant, receiver.url);
  const worker = await runWorker(database, { DATABASE_POOLER: pooler });
  try {
    const eventId = await recordEvent(database, tenant);
    await waitFor(
      async () => (await deliveryLog(database, eventId))[0]?.status === 'delivered',
      15_000,
    );
    expect(receiver.received).toHaveLength(1);
    // What the policies see: a statement sent through the pool (as every one of the worker's
    // own), then a connection of the pool probed outside any transaction.
    const probe = "SELECT current_setting('app.worker', true) AS flag";
    const inStatement = (await worker.pool.query<{ flag: string | null }>(probe)).rows[0]!.flag;
    const client = await worker.pool.connect();
    try {
      const between = (await client.query<{ flag: string | null }>(probe)).rows[0]!.flag;
      return { inStatement, between };
    } finally {
      client.release();
    }
  } finally {
    await worker.stop();
    await receiver.close();
  }
}

describe('the worker’s flag per transaction', () => {
  it('delivers with the flag set in each transaction, and leaves nothing on the connection', async () => {
    const { inStatement, between } = await deliverOne('transaction');
    expect(inStatement).toBe('on');
    expect(between).not.toBe('on');
  }, 60_000);

  it('by default the flag is the session’s (the control: the same probe sees it)', async () => {
    expect(await deliverOne('none')).toEqual({ inStatement: 'on', between: 'on' });
  }, 60_000);
});
