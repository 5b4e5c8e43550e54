import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { runWorker, waitFor } from './harness';
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

it('erases the first passwords nobody claimed in time, and only those', async () => {
  await database.pool.query(
    `INSERT INTO landing.onboardings (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
     VALUES ('cs_expired', 'stripe', 'late', 'late@example.test', 'expired-password', now() - interval '1 minute'),
            ('cs_live', 'stripe', 'soon', 'soon@example.test', 'live-password', now() + interval '1 hour')`,
  );
  worker = await runWorker(database, { ERP_SYNC_INTERVAL: NO_TICK });
  await addJob(database, jobs.purgeOnboardings, {});
  // The job is gone once it completed.
  await waitFor(async () => (await jobsOf(database, jobs.purgeOnboardings.name)).length === 0);
  const { rows } = await database.pool.query(
    'SELECT reference, initial_password FROM landing.onboardings ORDER BY reference',
  );
  expect(rows).toEqual([
    { reference: 'cs_expired', initial_password: null },
    { reference: 'cs_live', initial_password: 'live-password' },
  ]);
});
