import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { createTenant, runWorker, waitFor } from './harness';
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

const HOUR = 3_600_000;

async function keyAt(tenant: string, principal: string, key: string, hoursAgo: number) {
  await database.pool.query(
    `INSERT INTO idempotency_keys (tenant_id, principal, key, fingerprint, response_status, response_body, created_at)
     VALUES ($1, $2, $3, '\\x00', 201, '{}', $4)`,
    [tenant, principal, key, new Date(Date.now() - hoursAgo * HOUR)],
  );
}

it('the hourly purge deletes every tenant’s Idempotency-Key rows older than 24 h, and only those (SPEC §16)', async () => {
  const [a, b] = [await createTenant(database), await createTenant(database)];
  await keyAt(a, 'user:1', 'old', 25);
  await keyAt(b, 'api_key:2:3', 'old', 24.1);
  await keyAt(a, 'user:1', 'recent', 23.9);
  await keyAt(b, 'user:4', 'fresh', 0);

  worker = await runWorker(database, { ERP_SYNC_INTERVAL: NO_TICK });
  // Scheduled by the worker itself, as the events' retention is.
  const crons = await database.pool.query<{ identifier: string }>(
    'SELECT identifier FROM graphile_worker._private_known_crontabs',
  );
  expect(crons.rows.map((r) => r.identifier)).toContain(jobs.idempotencyPurge.name);
  await addJob(database, jobs.idempotencyPurge, {});
  await waitFor(async () => (await jobsOf(database, jobs.idempotencyPurge.name)).length === 0);

  const { rows } = await database.pool.query<{ key: string }>(
    'SELECT key FROM idempotency_keys WHERE tenant_id = ANY($1) ORDER BY key',
    [[a, b]],
  );
  expect(rows.map((r) => r.key)).toEqual(['fresh', 'recent']);
});
