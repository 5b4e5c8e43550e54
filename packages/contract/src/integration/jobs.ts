/**
 * Every background job, defined once: its name, its payload, how many runs graphile-worker
 * gives it, and its job key (at most one pending job per key). The portal, landing and the
 * worker enqueue them through `enqueueJob` (`@erp/db`), which checks the payload against this
 * schema and applies these options; the worker builds its task list from the same records, so
 * a job without a handler, or a handler without a job, does not compile its test.
 */
import { z } from 'zod';
import { UuidSchema } from '../schemas/common';
import { ForwardLeadPayloadSchema, ForwardPaymentEventPayloadSchema } from './landing';
import { InvitationMailPayloadSchema, PasswordResetMailPayloadSchema } from './password-links';

export interface JobDefinition<Payload extends z.ZodType = z.ZodType> {
  /** graphile-worker's task identifier. */
  name: string;
  payload: Payload;
  /** Runs before graphile-worker gives up (with its exponential backoff between them). */
  maxAttempts: number;
  /** The job key of a payload: at most one pending job per key (graphile-worker's `job_key`). */
  key?: (payload: z.output<Payload>) => string;
  /** What a second job with a pending job's key does: `replace` it (the default) or keep its run time. */
  keyMode?: 'replace' | 'preserve_run_at';
  /** Jobs of one named queue run one at a time, across workers. */
  queue?: string;
}

/** A job's payload as its handler receives it, and as an enqueue may give it. */
export type JobPayload<J extends JobDefinition> = z.output<J['payload']>;
export type JobPayloadInput<J extends JobDefinition> = z.input<J['payload']>;

/** Typed once here, so that the payload type follows the schema everywhere the job is named. */
function defineJob<Payload extends z.ZodType>(job: JobDefinition<Payload>): JobDefinition<Payload> {
  return job;
}

/** The key prefix of a delivery's job (the worker's statement that schedules retries builds keys in SQL). */
export const WEBHOOK_DELIVERY_KEY_PREFIX = 'webhook_delivery:';

/**
 * One attempt of one webhook delivery: a scheduled retry or a replay a user asked for (first
 * attempts are no jobs: the worker drains the events outbox). `attempt` is the number this
 * attempt will have: a job whose delivery has recorded it already does nothing. `manual` marks
 * a replay.
 */
export const DeliverPayloadSchema = z.object({
  delivery_id: UuidSchema,
  attempt: z.number().int().min(1),
  manual: z.boolean().optional(),
});
export type DeliverPayload = z.infer<typeof DeliverPayloadSchema>;

/** A scheduled task's payload: graphile-worker's cron adds `_cron` (its time), nothing else. */
const CronPayloadSchema = z.object({});

export const jobs = {
  /** Runs: database failures only (HTTP failures are retried by the worker's own schedule). */
  webhookDeliver: defineJob({
    name: 'webhook_deliver',
    payload: DeliverPayloadSchema,
    maxAttempts: 10,
    // A manual retry replaces the scheduled one: one pending attempt per delivery.
    key: (p) => `${WEBHOOK_DELIVERY_KEY_PREFIX}${p.delivery_id}`,
  }),
  /**
   * The push of tenants and plans to landing: on `ERP_SYNC_INTERVAL`, at start-up, and when
   * Settings → Portal access changes. One pending push (a new one replaces it), run one at a
   * time across workers.
   */
  erpSync: defineJob({
    name: 'erp_sync',
    payload: z.object({ startup: z.boolean().optional() }),
    maxAttempts: 3,
    key: () => 'erp_sync',
    keyMode: 'replace',
    queue: 'erp_sync',
  }),
  /** Landing → portal: a payment provider's event (about 5 hours of retries while the portal is down). */
  forwardPaymentEvent: defineJob({
    name: 'landing_forward_payment_event',
    payload: ForwardPaymentEventPayloadSchema,
    maxAttempts: 25,
    key: (p) => `payment:${p.provider}:${p.event_key}`,
  }),
  /** Landing → portal: a lead from a form. */
  forwardLead: defineJob({
    name: 'landing_forward_lead',
    payload: ForwardLeadPayloadSchema,
    maxAttempts: 25,
    key: (p) => `lead:${p.lead_id}`,
  }),
  /** Hourly: landing's unclaimed first passwords. */
  purgeOnboardings: defineJob({
    name: 'landing_purge_onboardings',
    payload: CronPayloadSchema,
    maxAttempts: 3,
    key: () => 'landing_purge_onboardings',
  }),
  /** A reset link to the account using that e-mail, if one does (about 1.5 h of retries). */
  mailPasswordReset: defineJob({
    name: 'mail_password_reset',
    payload: PasswordResetMailPayloadSchema,
    maxAttempts: 8,
  }),
  /** An invitation to set a first password. */
  mailInvitation: defineJob({
    name: 'mail_invitation',
    payload: InvitationMailPayloadSchema,
    maxAttempts: 8,
  }),
  /** Hourly: the events past their retention. */
  eventsRetention: defineJob({
    name: 'events_retention',
    payload: CronPayloadSchema,
    maxAttempts: 3,
    key: () => 'events_retention',
  }),
  /** Hourly: the Idempotency-Key rows past their 24 h (SPEC §16). */
  idempotencyPurge: defineJob({
    name: 'idempotency_purge',
    payload: CronPayloadSchema,
    maxAttempts: 3,
    key: () => 'idempotency_purge',
  }),
} as const;

export type JobName = (typeof jobs)[keyof typeof jobs]['name'];
