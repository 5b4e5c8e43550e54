import { jobs } from '@erp/contract';
import type { Logger } from '@erp/logger';
import type { ParsedCronItem } from 'graphile-worker';
import type pg from 'pg';
import { cronItemsFor, type JobHandlers } from '../runtime/jobs';
import { deleteExpiredEvents, EVENT_RETENTION_SCHEDULE } from './retention';

/** The event outbox's own upkeep: its retention. */
export function eventHandlers(deps: {
  pool: pg.Pool;
  logger: Logger;
  now: () => Date;
}): Pick<JobHandlers, 'eventsRetention'> {
  return { eventsRetention: () => deleteExpiredEvents(deps) };
}

/** Hourly: the retention job (one pending at a time, no catching up on missed hours). */
export function eventCronItems(): ParsedCronItem[] {
  return cronItemsFor([{ job: jobs.eventsRetention, match: EVENT_RETENTION_SCHEDULE }]);
}
