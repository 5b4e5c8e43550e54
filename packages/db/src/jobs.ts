import type { JobDefinition, JobPayload, JobPayloadInput } from '@erp/contract';
import { CompiledQuery, type Kysely } from 'kysely';

/** Where a job is enqueued: a Kysely instance or transaction, or a pg pool or client. */
export type JobExecutor =
  // biome-ignore lint/suspicious/noExplicitAny: any database type: only raw SQL is run.
  Kysely<any> | { query(text: string, values?: unknown[]): Promise<unknown> };

export interface JobOptions {
  /** When to run it; now when omitted. */
  runAt?: Date;
}

/**
 * Enqueues jobs of one definition in one statement (`graphile_worker.add_jobs`): each payload
 * checked against the definition's schema (a bad one throws before anything is written), with
 * its key, runs, key mode and queue. Inside the caller's transaction when given one: the jobs
 * commit or roll back with what decided them.
 */
export async function enqueueJobs<J extends JobDefinition>(
  db: JobExecutor,
  job: J,
  items: ReadonlyArray<{ payload: JobPayloadInput<J> } & JobOptions>,
): Promise<void> {
  if (items.length === 0) return;
  const payloads = items.map((item) => job.payload.parse(item.payload) as JobPayload<J>);
  const text = `SELECT graphile_worker.add_jobs(
      array_agg(ROW($1::text, j.payload, $2::text, j.run_at, $3::int, j.job_key, NULL, NULL)::graphile_worker.job_spec),
      $4::boolean)
    FROM unnest($5::json[], $6::text[], $7::timestamptz[]) AS j(payload, job_key, run_at)`;
  const values = [
    job.name,
    job.queue ?? null,
    job.maxAttempts,
    job.keyMode === 'preserve_run_at',
    payloads.map((p) => JSON.stringify(p)),
    payloads.map((p) => job.key?.(p) ?? null),
    items.map((item) => item.runAt ?? null),
  ];
  if ('executeQuery' in db) await db.executeQuery(CompiledQuery.raw(text, values));
  else await db.query(text, values);
}

/** Enqueues one job (see `enqueueJobs`). */
export function enqueueJob<J extends JobDefinition>(
  db: JobExecutor,
  job: J,
  payload: JobPayloadInput<J>,
  options: JobOptions = {},
): Promise<void> {
  return enqueueJobs(db, job, [{ payload, ...options }]);
}
