import { ERP_SYNC_JOB, landingJobs } from '@erp/contract';
import { type ParsedCronItem, parseCronItems, type Runner, type TaskList } from 'graphile-worker';
import type { SyncDeps } from './deps';
import { erpSyncTask } from './erp-sync';
import { forwardLeadTask } from './forward-lead';
import { forwardPaymentEventTask } from './forward-payment-event';
import {
  PURGE_ONBOARDINGS_JOB,
  PURGE_ONBOARDINGS_SCHEDULE,
  purgeOnboardingsTask,
} from './purge-onboardings';

export type { LandingDeps, SyncDeps } from './deps';
export { createOutbound, type Outbound } from './outbound';

/**
 * One pending push at a time (the job key: a tick replaces a push still waiting for its retry),
 * run one at a time across workers (the queue), 3 attempts with graphile-worker's backoff.
 */
const ERP_SYNC_JOB_SPEC = {
  maxAttempts: 3,
  jobKey: ERP_SYNC_JOB,
  jobKeyMode: 'replace',
  queueName: ERP_SYNC_JOB,
} as const;

/** The landing tasks, by the names landing (and the crontab) enqueue them with. */
export function landingTasks(deps: SyncDeps): TaskList {
  return {
    [ERP_SYNC_JOB]: erpSyncTask(deps),
    [landingJobs.forwardPaymentEvent]: forwardPaymentEventTask(deps),
    [landingJobs.forwardLead]: forwardLeadTask(deps),
    [PURGE_ONBOARDINGS_JOB]: purgeOnboardingsTask(deps),
  };
}

/** The scheduled tasks: the push (`<interval> erp_sync ?max=3&jobKey=erp_sync&jobKeyMode=replace&queue=erp_sync`) and the hourly purge of unclaimed first passwords. */
export function landingCronItems(interval: string): ParsedCronItem[] {
  return parseCronItems([
    {
      task: ERP_SYNC_JOB,
      match: interval,
      identifier: ERP_SYNC_JOB,
      options: { ...ERP_SYNC_JOB_SPEC, backfillPeriod: 0 },
    },
    {
      task: PURGE_ONBOARDINGS_JOB,
      match: PURGE_ONBOARDINGS_SCHEDULE,
      identifier: PURGE_ONBOARDINGS_JOB,
      options: { maxAttempts: 3, jobKey: PURGE_ONBOARDINGS_JOB, backfillPeriod: 0 },
    },
  ]);
}

/**
 * A push right at start-up, so landing has data without waiting for the first tick. It waits
 * for landing to listen first (`startup`): the two usually start together.
 */
export async function enqueueStartupSync(runner: Runner): Promise<void> {
  await runner.addJob(ERP_SYNC_JOB, { startup: true }, ERP_SYNC_JOB_SPEC);
}
