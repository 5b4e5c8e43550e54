import { type JobDefinition, type JobPayload, jobs } from '@erp/contract';
import { type CronItem, type JobHelpers, parseCronItems, type TaskList } from 'graphile-worker';

type Jobs = typeof jobs;

/** A job's handler: its payload already checked against the job's schema. */
export type JobHandler<J extends JobDefinition> = (
  payload: JobPayload<J>,
  helpers: JobHelpers,
) => Promise<void>;

/** One handler per defined job, by the job's name in `jobs`: a missing or extra one does not compile. */
export type JobHandlers = { [K in keyof Jobs]: JobHandler<Jobs[K]> };

/**
 * The worker's task list, built from the job definitions: each task parses its payload with
 * the job's schema (a bad payload fails the job, and graphile-worker retries or gives up).
 */
export function buildTaskList(handlers: JobHandlers): TaskList {
  const list: TaskList = {};
  for (const [key, job] of Object.entries(jobs) as [keyof Jobs, JobDefinition][]) {
    const handler = handlers[key] as JobHandler<JobDefinition>;
    list[job.name] = async (payload, helpers) => handler(job.payload.parse(payload ?? {}), helpers);
  }
  return list;
}

/**
 * A scheduled run of a job with the job's own options (runs, key, queue), no catching up on
 * missed ticks; its payload is graphile-worker's (`_cron`), which the job's schema accepts.
 */
export function cronItemsFor(items: ReadonlyArray<{ job: JobDefinition; match: string }>) {
  return parseCronItems(
    items.map(({ job, match }): CronItem => {
      const key = job.key?.(job.payload.parse({}));
      return {
        task: job.name,
        match,
        identifier: job.name,
        options: {
          maxAttempts: job.maxAttempts,
          backfillPeriod: 0,
          ...(key === undefined ? {} : { jobKey: key, jobKeyMode: job.keyMode ?? 'replace' }),
          ...(job.queue ? { queueName: job.queue } : {}),
        },
      };
    }),
  );
}
