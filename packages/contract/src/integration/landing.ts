/**
 * What the worker and landing exchange besides the portal's HTTP API: the ERP sync push
 * (worker → landing `/api/erp-sync`) and the jobs landing enqueues for the worker.
 */
import { z } from 'zod';
import { ModuleSchema } from '../modules';
import { EmailSchema, SlugSchema, TimestampSchema, UuidSchema } from '../schemas/common';
import { PlanSchema, SubscriptionChangeBodySchema } from '../schemas/plans';

/** The snapshot the worker pushes to landing; landing replaces its copy with it. */
export const ErpSyncPushSchema = z.object({
  /** When the worker read it; a push older than the one stored is ignored (`stale`). */
  generated_at: TimestampSchema,
  tenants: z
    .array(
      z.object({
        id: UuidSchema,
        slug: z.string().min(1).max(64),
        name: z.string().max(200),
        plan_code: z.string().nullable(),
        modules: z.array(ModuleSchema),
        created_at: TimestampSchema,
      }),
    )
    .max(100_000),
  plans: z.array(PlanSchema).max(1000),
  metadata: z.record(z.string().max(100), z.unknown()),
});
export type ErpSyncPush = z.infer<typeof ErpSyncPushSchema>;

export const ErpSyncCountsSchema = z.object({
  tenants: z.number().int(),
  plans: z.number().int(),
  metadata: z.number().int(),
});

/** Landing's answer to a push. */
export const ErpSyncResultSchema = z.object({
  status: z.enum(['applied', 'unchanged', 'stale']),
  counts: ErpSyncCountsSchema,
});
export type ErpSyncResult = z.infer<typeof ErpSyncResultSchema>;

/** A payment provider's event, normalised: what to ask the portal. */
export const SubscriptionChangeSchema = z.object({
  /** A first purchase: the tenant to provision (`/api/v1/internal/tenants`) before anything else. */
  provision: z
    .object({
      slug: SlugSchema,
      name: z.string().min(1).max(200),
      plan_code: z.string().min(1).max(64),
      admin: z.object({ email: EmailSchema, name: z.string().min(1).max(200) }),
      /** The checkout's id (Stripe session, Paddle transaction, Lemon Squeezy order): how the
       * buyer's browser claims the onboarding afterwards. */
      reference: z.string().min(1).max(200),
    })
    .optional(),
  /** The subscription's new state (`/api/v1/internal/subscriptions`). */
  subscription: SubscriptionChangeBodySchema.optional(),
});
export type SubscriptionChange = z.infer<typeof SubscriptionChangeSchema>;

/** The payloads of the jobs landing enqueues (see `jobs` in ./jobs.ts). */
export const ForwardPaymentEventPayloadSchema = z.object({
  provider: z.string().min(1).max(40),
  event_key: z.string().min(1).max(300),
});
export const ForwardLeadPayloadSchema = z.object({ lead_id: UuidSchema });
