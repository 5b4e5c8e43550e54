import { z } from '@hono/zod-openapi';
import { ModuleSchema } from '../modules';
import { EmailSchema, PasswordSchema, SlugSchema, TimestampSchema, UuidSchema } from './common';
import { TenantSummarySchema } from './identity';

export const PlanSchema = z
  .object({
    code: z.string().openapi({ example: 'business' }),
    name: z.string().openapi({ example: 'Business' }),
    description: z.string(),
    currency: z.string().length(3).openapi({ example: 'EUR' }),
    monthly_price_cents: z.number().int().openapi({ example: 4900 }),
    yearly_price_cents: z.number().int().openapi({ example: 49000 }),
    modules: z.array(ModuleSchema),
    max_users: z.number().int().nullable(),
  })
  .openapi('Plan');

export const ProvisionTenantBodySchema = z
  .object({
    slug: SlugSchema,
    name: z.string().trim().min(1).max(200),
    plan_code: z.string().min(1).max(64),
    admin: z.object({
      email: EmailSchema,
      name: z.string().trim().min(1).max(200),
      password: PasswordSchema.optional().openapi({
        description:
          'The first password of a new account. An e-mail that already has an account keeps its own password and name: both given here are then ignored (the answer is the same either way).',
      }),
    }),
    on_slug_taken: z.enum(['conflict', 'suffix']).default('conflict').openapi({
      description:
        '`conflict` (default): a taken slug is `conflit`. `suffix`: the slug is only a wish, and a taken one becomes `<slug>-2`, `<slug>-3`… (a purchase never lands in an existing tenant); with an `Idempotency-Key` already used, its tenant answers whatever its slug.',
    }),
  })
  .openapi('ProvisionTenantRequest');

/** The provisioning's `Idempotency-Key`: visible ASCII, long enough for any checkout id. */
export const ProvisioningHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, '1 to 200 visible ASCII characters')
    .optional()
    .openapi({
      description:
        'Makes the provisioning retryable: the tenant keeps the key, and a request with a known key and the same slug answers 200 with that tenant and changes nothing (another slug: `conflit`). Keys do not expire.',
      example: 'cs_test_a1b2c3',
    }),
});

export const ProvisionedTenantSchema = z
  .object({
    tenant: TenantSummarySchema.extend({ plan_code: z.string().nullable() }),
    admin: z.object({
      id: UuidSchema,
      email: EmailSchema,
      password: z.string().optional().openapi({
        description:
          'When none was given: a generated first password, shown once. It applies to a new account only; an e-mail that already had an account keeps its own (the answer does not say which, SPEC §3).',
      }),
    }),
  })
  .openapi('ProvisionedTenant');

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'expired',
] as const;

export const SubscriptionChangeBodySchema = z
  .object({
    tenant: z.string().min(1).max(64).openapi({ description: 'Tenant slug or UUID.' }),
    plan_code: z.string().min(1).max(64),
    status: z.enum(SUBSCRIPTION_STATUSES),
    provider: z.string().min(1).max(40).openapi({ example: 'stripe' }),
    provider_subscription_id: z.string().min(1).max(200),
    current_period_end: TimestampSchema.nullable().optional(),
    event_at: TimestampSchema.optional().openapi({
      description:
        'When the provider says the change happened. A change older than the one already applied is ignored (`applied: false`); without it the change is always applied.',
    }),
  })
  .openapi('SubscriptionChangeRequest');

export const SubscriptionSchema = z
  .object({
    id: UuidSchema,
    tenant_id: UuidSchema,
    plan_code: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    provider: z.string(),
    provider_subscription_id: z.string(),
    current_period_end: TimestampSchema.nullable(),
    tenant_modules: z.array(ModuleSchema),
    applied: z.boolean().openapi({
      description:
        'False when the change was older than the one already applied: nothing was written and this is the stored, newer state.',
    }),
  })
  .openapi('Subscription');
