import { DeliverPayload, FanoutPayload, WEBHOOK_DELIVER, WEBHOOK_FANOUT } from '@erp/webhooks';
import type { Task, TaskList } from 'graphile-worker';
import { attemptDeliveries, type DeliveryDeps, type DeliveryTarget } from './deliver';
import { ABANDON_DELIVERY, FANOUT, LOAD_DELIVERY } from './statements';

/** Fans one event out to its tenant's matching subscriptions and makes every first attempt. */
export function fanoutTask(deps: DeliveryDeps): Task {
  return async function webhookFanout(payload) {
    const { event_id } = FanoutPayload.parse(payload);
    const { rows } = await deps.pool.query<DeliveryTarget>({ ...FANOUT, values: [event_id] });
    await attemptDeliveries(deps, rows);
  };
}

/**
 * One attempt of one delivery (a scheduled retry, or a replay a user asked for). A job whose
 * attempt is already recorded (re-run after a crash, or overtaken by a replay) does nothing.
 */
export function deliverTask(deps: DeliveryDeps): Task {
  return async function webhookDeliver(payload) {
    const job = DeliverPayload.parse(payload);
    const { rows } = await deps.pool.query<DeliveryTarget>({
      ...LOAD_DELIVERY,
      values: [job.delivery_id],
    });
    const target = rows[0];
    if (!target || target.attempts >= job.attempt) return;
    if (!job.manual && target.status !== 'pending') return;
    if (!target.enabled && !job.manual) {
      await deps.pool.query({ ...ABANDON_DELIVERY, values: [target.delivery_id] });
      return;
    }
    await attemptDeliveries(deps, [target], job.manual ?? false);
  };
}

/** The webhook tasks, by the names their jobs are enqueued with. */
export function webhookTasks(deps: DeliveryDeps): TaskList {
  return { [WEBHOOK_FANOUT]: fanoutTask(deps), [WEBHOOK_DELIVER]: deliverTask(deps) };
}
