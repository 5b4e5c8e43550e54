import type { JobHandlers } from '../runtime/jobs';
import { attemptDeliveries, type DeliveryDeps } from './deliver';

/**
 * One attempt of one delivery (a scheduled retry, or a replay a user asked for). A job whose
 * attempt is already recorded (re-run after a crash, or overtaken by a replay) does nothing.
 * First attempts are not jobs: the outbox drain makes them (outbox.ts).
 */
export function webhookHandlers(deps: DeliveryDeps): Pick<JobHandlers, 'webhookDeliver'> {
  return {
    async webhookDeliver(job) {
      const target = await deps.store.load(job.delivery_id);
      if (!target || target.attempts >= job.attempt) return;
      if (!job.manual && target.status !== 'pending') return;
      if (!target.enabled && !job.manual) {
        await deps.store.abandon(target.delivery_id);
        return;
      }
      await attemptDeliveries(deps, [target], { manual: job.manual ?? false });
    },
  };
}
