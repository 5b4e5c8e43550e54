import { z } from 'zod';

/**
 * The worker's webhook jobs: names and payloads, shared by whoever enqueues them (the
 * `events` trigger, the portal's retry / test / recover, the worker's own retries) and the
 * worker's handlers.
 */
export const WEBHOOK_FANOUT = 'webhook_fanout';
export const WEBHOOK_DELIVER = 'webhook_deliver';

/** One recorded event to fan out to its tenant's matching subscriptions (enqueued by the trigger). */
export const FanoutPayload = z.object({ event_id: z.uuid() });
export type FanoutPayload = z.infer<typeof FanoutPayload>;

/**
 * One attempt of one delivery. `attempt` is the number this attempt will have: a job whose
 * delivery has already recorded it (a job re-run after a crash) does nothing. `manual` marks a
 * replay asked for by a user.
 */
export const DeliverPayload = z.object({
  delivery_id: z.uuid(),
  attempt: z.number().int().min(1),
  manual: z.boolean().optional(),
});
export type DeliverPayload = z.infer<typeof DeliverPayload>;

/** Runs of a delivery job before graphile-worker gives up (database failures; HTTP failures are retried by us). */
export const DELIVER_JOB_MAX_ATTEMPTS = 10;

/** The job key of a delivery: at most one pending job per delivery. */
export function deliveryJobKey(deliveryId: string): string {
  return `webhook_delivery:${deliveryId}`;
}

/** Anything that runs a parameterised query (a pg pool or client). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

export interface DeliveryJob {
  deliveryId: string;
  attempt: number;
  manual?: boolean;
  /** When to run; now when omitted. */
  runAt?: Date;
}

/**
 * Enqueues delivery attempts in one statement (`graphile_worker.add_jobs`), replacing any job
 * already pending for the same delivery. Run it inside the transaction that decided them.
 */
export async function enqueueDeliveries(
  db: Queryable,
  jobs: readonly DeliveryJob[],
): Promise<void> {
  if (jobs.length === 0) return;
  await db.query(
    `SELECT graphile_worker.add_jobs(array_agg(ROW($1::text, json_build_object('delivery_id', j.id, 'attempt', j.attempt, 'manual', j.manual), NULL, j.run_at, $2, $3 || j.id::text, NULL, NULL)::graphile_worker.job_spec))
     FROM unnest($4::uuid[], $5::int[], $6::boolean[], $7::timestamptz[]) AS j(id, attempt, manual, run_at)`,
    [
      WEBHOOK_DELIVER,
      DELIVER_JOB_MAX_ATTEMPTS,
      deliveryJobKey(''),
      jobs.map((j) => j.deliveryId),
      jobs.map((j) => j.attempt),
      jobs.map((j) => j.manual ?? false),
      jobs.map((j) => j.runAt ?? null),
    ],
  );
}
