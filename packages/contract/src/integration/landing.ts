/**
 * What the worker and landing exchange besides the portal's HTTP API: the ERP sync push
 * (worker → landing `/api/erp-sync`) and the jobs landing enqueues for the worker.
 */
import { z } from 'zod';
import { ModuleSchema } from '../modules';
import { EmailSchema, SlugSchema, TimestampSchema, UuidSchema } from '../schemas/common';
import { PlanSchema, SUBSCRIPTION_STATUSES } from '../schemas/plans';

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

/** A subscription's state as the provider reports it; the plan read from its own price. */
export const ProviderStateSchema = z.object({
  /** From `PAYMENT_PLAN_PRICES` (the price or variant bought), never from checkout metadata. */
  plan_code: z.string().min(1).max(64),
  status: z.enum(SUBSCRIPTION_STATUSES),
  current_period_end: TimestampSchema.nullable().optional(),
  /** When the provider says the change happened: the portal ignores one older than it applied. */
  event_at: TimestampSchema.optional(),
});
export type ProviderState = z.infer<typeof ProviderStateSchema>;

/** What a first purchase asks for: a *new* tenant (never an existing one) and its first admin. */
export const ProviderPurchaseSchema = z.object({
  /** Requested only: the portal takes another (suffixed) slug when this one is taken. */
  slug: SlugSchema,
  name: z.string().min(1).max(200),
  admin: z.object({ email: EmailSchema, name: z.string().min(1).max(200) }),
  /** SHA-256 (hex) of the claim reference landing issued (`/api/onboarding/start`), when the
   * checkout carried one back; never a provider id. */
  reference_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type ProviderPurchase = z.infer<typeof ProviderPurchaseSchema>;

/**
 * A payment provider's event, normalised: what to ask the portal. It names no tenant: a change
 * applies to the tenant `landing.provider_bindings` bound to this customer and subscription at
 * the first purchase (`provision`), which the worker looks up when it forwards.
 */
export const SubscriptionChangeSchema = z.object({
  provider_customer_id: z.string().min(1).max(200),
  provider_subscription_id: z.string().min(1).max(200),
  /** The first purchase: provision a new tenant on `subscription.plan_code` and bind it. */
  provision: ProviderPurchaseSchema.optional(),
  /** The subscription's new state (`/api/v1/internal/subscriptions`, to the bound tenant). */
  subscription: ProviderStateSchema.optional(),
});
export type SubscriptionChange = z.infer<typeof SubscriptionChangeSchema>;

/** The payloads of the jobs landing enqueues (see `jobs` in ./jobs.ts). */
export const ForwardPaymentEventPayloadSchema = z.object({
  provider: z.string().min(1).max(40),
  event_key: z.string().min(1).max(300),
});
export const ForwardLeadPayloadSchema = z.object({ lead_id: UuidSchema });
