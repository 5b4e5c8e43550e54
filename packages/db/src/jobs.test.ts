import { jobs } from '@erp/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueJob, enqueueJobs } from './jobs';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());
beforeEach(async () => {
  await sql`DELETE FROM graphile_worker._private_jobs`.execute(tdb.db);
});

async function queued() {
  const { rows } = await sql<{
    task_identifier: string;
    payload: unknown;
    key: string | null;
    max_attempts: number;
    queue_name: string | null;
    run_at: Date;
  }>`
    SELECT t.identifier AS task_identifier, j.payload, j.key, j.max_attempts, q.queue_name, j.run_at
    FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id
    ORDER BY j.id`.execute(tdb.db);
  return rows;
}

describe('enqueueJob', () => {
  it('applies the definition: name, payload, runs, key and queue (Kysely and pg alike)', async () => {
    await enqueueJob(tdb.db, jobs.erpSync, { startup: true });
    await enqueueJob(tdb.pool, jobs.forwardLead, {
      lead_id: '0190f2b4-7f00-7000-8000-000000000001',
    });
    expect(await queued()).toEqual([
      expect.objectContaining({
        task_identifier: 'erp_sync',
        payload: { startup: true },
        key: 'erp_sync',
        max_attempts: 3,
        queue_name: 'erp_sync',
      }),
      expect.objectContaining({
        task_identifier: 'landing_forward_lead',
        payload: { lead_id: '0190f2b4-7f00-7000-8000-000000000001' },
        key: 'lead:0190f2b4-7f00-7000-8000-000000000001',
        max_attempts: 25,
        queue_name: null,
      }),
    ]);
  });

  it('a second job with a pending key replaces it: one delivery attempt pending, the latest', async () => {
    const delivery_id = '0190f2b4-7f00-7000-8000-000000000002';
    const later = new Date(Date.now() + 3600_000);
    await enqueueJob(tdb.pool, jobs.webhookDeliver, { delivery_id, attempt: 2 }, { runAt: later });
    await enqueueJobs(tdb.pool, jobs.webhookDeliver, [
      { payload: { delivery_id, attempt: 3, manual: true } },
    ]);
    const rows = await queued();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      payload: { delivery_id, attempt: 3, manual: true },
      key: `webhook_delivery:${delivery_id}`,
      max_attempts: 10,
    });
    expect(rows[0]!.run_at.getTime()).toBeLessThan(later.getTime());
  });

  it('refuses a payload its schema refuses, before anything is written', async () => {
    await expect(
      enqueueJob(tdb.pool, jobs.webhookDeliver, { delivery_id: 'nope', attempt: 0 }),
    ).rejects.toThrow();
    await expect(
      // @ts-expect-error the payload's type follows the schema
      enqueueJob(tdb.pool, jobs.mailInvitation, { user_id: 1 }),
    ).rejects.toThrow();
    expect(await queued()).toEqual([]);
  });

  it('rolls back with the transaction it was given', async () => {
    await tdb.db
      .transaction()
      .execute(async (trx) => {
        await enqueueJob(trx, jobs.mailPasswordReset, { email: 'a@example.com' });
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await queued()).toEqual([]);
  });
});
