import { DeliverPayload, WEBHOOK_DELIVER } from '@erp/webhooks';
import type { Task, TaskList } from 'graphile-worker';
import { attemptDeliveries, type DeliveryDeps } from './deliver';

/**
 * One attempt of one delivery (a scheduled retry, or a replay a user asked for). A job whose
 * attempt is already recorded (re-run after a crash, or overtaken by a replay) does nothing.
 * First attempts are not jobs: the outbox drain makes them (outbox.ts).
 */
export function deliverTask(deps: DeliveryDeps): Task {
  return async function webhookDeliver(payload) {
    const job = DeliverPayload.parse(payload);
    const target = await deps.store.load(job.delivery_id);
    if (!target || target.attempts >= job.attempt) return;
    if (!job.manual && target.status !== 'pending') return;
    if (!target.enabled && !job.manual) {
      await deps.store.abandon(target.delivery_id);
      return;
    }
    await attemptDeliveries(deps, [target], { manual: job.manual ?? false });
  };
}

/** The webhook tasks, by the names their jobs are enqueued with. */
export function webhookTasks(deps: DeliveryDeps): TaskList {
  return { [WEBHOOK_DELIVER]: deliverTask(deps) };
}
