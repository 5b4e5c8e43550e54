import type { Logger } from '@erp/logger';
import { type ParsedCronItem, parseCronItems, type TaskList } from 'graphile-worker';
import type pg from 'pg';
import { EVENT_RETENTION_JOB, EVENT_RETENTION_SCHEDULE, eventRetentionTask } from './retention';

export { EVENT_RETENTION_JOB } from './retention';

/** The event outbox's own upkeep: its retention. */
export function eventTasks(deps: { pool: pg.Pool; logger: Logger; now: () => Date }): TaskList {
  return { [EVENT_RETENTION_JOB]: eventRetentionTask(deps) };
}

/** Hourly: the retention job (one pending at a time, no catching up on missed hours). */
export function eventCronItems(): ParsedCronItem[] {
  return parseCronItems([
    {
      task: EVENT_RETENTION_JOB,
      match: EVENT_RETENTION_SCHEDULE,
      identifier: EVENT_RETENTION_JOB,
      options: { maxAttempts: 3, jobKey: EVENT_RETENTION_JOB, backfillPeriod: 0 },
    },
  ]);
}
