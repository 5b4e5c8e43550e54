import { DeliverPayload, FanoutPayload, WEBHOOK_DELIVER, WEBHOOK_FANOUT } from '@erp/webhooks';
import type { Task, TaskList } from 'graphile-worker';
import { attemptDeliveries, type DeliveryDeps } from './deliver';

/** How long a fan-out waits in its job for its event's sequence, then how soon it runs again. */
export const SEQUENCE_WAIT = { withinJobMs: 1_000, firstPauseMs: 10, againAfterMs: 1_000 };

/**
 * Fans one event out to its tenant's matching subscriptions and makes every first attempt,
 * once the event has its sequence (every delivery body carries it). The job's transaction has
 * committed with the event's, so it is numbered at once in practice; should it not be, the job
 * waits a little, then is enqueued again to run soon (not graphile-worker's retry backoff,
 * which is meant for failures and reaches minutes).
 */
export function fanoutTask(deps: DeliveryDeps): Task {
  return async function webhookFanout(payload, helpers) {
    const { event_id } = FanoutPayload.parse(payload);
    const started = Date.now();
    for (let pause = SEQUENCE_WAIT.firstPauseMs; ; pause *= 2) {
      const targets = await deps.store.fanout(event_id);
      if (targets) return attemptDeliveries(deps, targets);
      if (Date.now() - started + pause > SEQUENCE_WAIT.withinJobMs) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    deps.logger.warn('event not numbered yet: fan-out again soon', { event_id });
    await helpers.addJob(WEBHOOK_FANOUT, { event_id } satisfies FanoutPayload, {
      runAt: new Date(Date.now() + SEQUENCE_WAIT.againAfterMs),
    });
  };
}

/**
 * One attempt of one delivery (a scheduled retry, or a replay a user asked for). A job whose
 * attempt is already recorded (re-run after a crash, or overtaken by a replay) does nothing.
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
    await attemptDeliveries(deps, [target], job.manual ?? false);
  };
}

/** The webhook tasks, by the names their jobs are enqueued with. */
export function webhookTasks(deps: DeliveryDeps): TaskList {
  return { [WEBHOOK_FANOUT]: fanoutTask(deps), [WEBHOOK_DELIVER]: deliverTask(deps) };
}
