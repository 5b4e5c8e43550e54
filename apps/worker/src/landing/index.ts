import { jobs } from '@erp/contract';
import { enqueueJob } from '@erp/db';
import type { ParsedCronItem } from 'graphile-worker';
import type pg from 'pg';
import { cronItemsFor, type JobHandlers } from '../runtime/jobs';
import type { SyncDeps } from './deps';
import { erpSyncHandler } from './erp-sync';
import { forwardLeadHandler } from './forward-lead';
import { forwardPaymentEventHandler } from './forward-payment-event';
import { PURGE_ONBOARDINGS_SCHEDULE, purgeOnboardingsHandler } from './purge-onboardings';

export type { LandingDeps, SyncDeps } from './deps';
export { createOutbound, type Outbound } from './outbound';

/** The landing jobs' handlers. */
export function landingHandlers(
  deps: SyncDeps,
): Pick<JobHandlers, 'erpSync' | 'forwardPaymentEvent' | 'forwardLead' | 'purgeOnboardings'> {
  return {
    erpSync: erpSyncHandler(deps),
    forwardPaymentEvent: forwardPaymentEventHandler(deps),
    forwardLead: forwardLeadHandler(deps),
    purgeOnboardings: purgeOnboardingsHandler(deps),
  };
}

/**
 * The scheduled tasks, with their jobs' options: the push every `interval` (one pending at a
 * time, run one at a time across workers) and the hourly purge of unclaimed first passwords.
 */
export function landingCronItems(interval: string): ParsedCronItem[] {
  return cronItemsFor([
    { job: jobs.erpSync, match: interval },
    { job: jobs.purgeOnboardings, match: PURGE_ONBOARDINGS_SCHEDULE },
  ]);
}

/**
 * A push right at start-up, so landing has data without waiting for the first tick. It waits
 * for landing to listen first (`startup`): the two usually start together.
 */
export async function enqueueStartupSync(pool: pg.Pool): Promise<void> {
  await enqueueJob(pool, jobs.erpSync, { startup: true });
}
