import { z } from '@hono/zod-openapi';
import { BUSINESS_EVENT_NAMES } from '../catalogue/index';
import { TimestampSchema, UuidSchema, withoutCredentials } from './common';

/** The payload version (YYYY-MM-DD) a new subscription is pinned to (`X-Service-Webhook-Version`). */
export const WEBHOOK_VERSION = '2026-11-23';
/** The type of the events `POST /api/v1/settings/webhooks/{id}/test` records (never fanned out). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Longest overlap of a rotated signing secret, in hours. */
export const SECRET_OVERLAP_MAX_HOURS = 24;
export const SUBSCRIBER_URL_MAX_LENGTH = 2048;
/** An endpoint whose every attempt has failed for this long is disabled (SPEC §12)... */
export const WEBHOOK_DISABLE_FAILING_DAYS = 5;
/** ...and so is one whose last this many deliveries all ended `failed`. */
export const WEBHOOK_DISABLE_FAILED_DELIVERIES = 500;
/**
 * Why the platform disabled a subscription: its endpoint answered 410 Gone; every attempt failed
 * for `WEBHOOK_DISABLE_FAILING_DAYS`; or `WEBHOOK_DISABLE_FAILED_DELIVERIES` deliveries in a row
 * used up their retries.
 */
export const WEBHOOK_DISABLED_REASONS = ['gone', 'failing', 'failed_deliveries'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

export const WebhookEventNameSchema = z
  .enum(BUSINESS_EVENT_NAMES, { error: (issue) => `unknown event ${JSON.stringify(issue.input)}` })
  .openapi('WebhookEventName', {
    description: 'An event of the catalogue (`GET /api/v1/settings/webhooks/events`).',
  });

export const WebhookEventSchema = z
  .object({
    name: WebhookEventNameSchema,
    description: z.string(),
    resource: z.string().openapi({ example: 'sales_order' }),
    action: z.string().openapi({
      description: '`created`, `status_changed` or an approval step.',
      example: 'status_changed',
    }),
  })
  .openapi('WebhookEvent');

/** Absolute http(s), no credentials; where it may point is the portal's check (network rules). */
const SubscriberUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL' })
  .max(SUBSCRIBER_URL_MAX_LENGTH)
  .refine(
    (url) => ![...url].some((c) => c <= ' ' || c === '\u007f'),
    'must not contain spaces or control characters',
  )
  .refine(withoutCredentials, 'must not contain a user name or password')
  .openapi({
    description:
      'Where deliveries are POSTed: at most 2048 characters, no user name or password. Unless the server allows private URLs (development): `https` only, and a host that is, or resolves to, a private, loopback or link-local address is refused.',
    example: 'https://example.com/webhooks/erp',
  });

const EventListSchema = z
  .array(WebhookEventNameSchema)
  .min(1)
  .max(BUSINESS_EVENT_NAMES.length)
  .refine((names) => new Set(names).size === names.length, 'events must not repeat')
  .openapi({ example: ['sales_order.created', 'sales_order.status_changed'] });

const DescriptionSchema = z
  .string()
  .trim()
  .max(500)
  .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters');

export const WebhookSubscriptionSchema = z
  .object({
    id: UuidSchema,
    url: z.string().openapi({ example: 'https://example.com/webhooks/erp' }),
    events: z.array(WebhookEventNameSchema),
    description: z.string(),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(WEBHOOK_DISABLED_REASONS)
      .nullable()
      .openapi({
        description: `Why the platform disabled the subscription: \`gone\` (the endpoint answered 410), \`failing\` (every attempt failed for ${WEBHOOK_DISABLE_FAILING_DAYS} days), \`failed_deliveries\` (${WEBHOOK_DISABLE_FAILED_DELIVERIES} deliveries in a row used up their retries). Null while enabled or when a user disabled it.`,
      }),
    disabled_at: TimestampSchema.nullable().openapi({
      description: 'When the platform disabled it; null while enabled or when a user disabled it.',
    }),
    failing_since: TimestampSchema.nullable().openapi({
      description:
        'When the current run of failed attempts began (every attempt since has failed); null once an attempt succeeds. After re-enabling, `POST …/recover` with this `since` replays what failed meanwhile.',
    }),
    consecutive_failures: z.number().int().openapi({
      description:
        'Deliveries in a row that used up their retries since the last successful attempt (or since re-enabling).',
    }),
    webhook_version: z.string().openapi({
      description: 'Payload version the subscription is pinned to (`X-Service-Webhook-Version`).',
      example: WEBHOOK_VERSION,
    }),
    previous_secret_expires_at: TimestampSchema.nullable().openapi({
      description:
        'When the secret replaced by the last rotation stops signing; null if never rotated.',
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi('WebhookSubscription');

const SecretSchema = z.string().openapi({
  description:
    'The signing secret (`whsec_<base64 of 32 bytes>`): HMAC key of `X-Service-Signature` (its UTF-8 bytes) and of `webhook-signature` (its base64 part). Shown only here.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const CreatedWebhookSubscriptionSchema = WebhookSubscriptionSchema.extend({
  secret: SecretSchema,
}).openapi('CreatedWebhookSubscription');

export const CreateWebhookSubscriptionBodySchema = z
  .object({
    url: SubscriberUrlSchema,
    events: EventListSchema,
    description: DescriptionSchema.optional(),
    enabled: z.boolean().optional().openapi({ description: 'Default true.' }),
  })
  .openapi('CreateWebhookSubscriptionRequest');

export const UpdateWebhookSubscriptionBodySchema = z
  .object({
    url: SubscriberUrlSchema.optional(),
    events: EventListSchema.optional(),
    description: DescriptionSchema.optional(),
    enabled: z.boolean().optional().openapi({
      description:
        'Setting it clears `disabled_reason` and `disabled_at`; re-enabling also restarts the count of failed deliveries (`failing_since` stays until an attempt succeeds: recover from it).',
    }),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'change at least one field')
  .openapi('UpdateWebhookSubscriptionRequest');

export const RotateWebhookSecretBodySchema = z
  .object({
    expire_previous_in_hours: z
      .number()
      .int()
      .min(0)
      .max(SECRET_OVERLAP_MAX_HOURS)
      .optional()
      .openapi({
        description:
          'How long the current secret keeps signing beside the new one (default 24; 0 = it stops now).',
      }),
  })
  .openapi('RotateWebhookSecretRequest');

export const RotatedWebhookSecretSchema = z
  .object({
    secret: SecretSchema,
    previous_secret_expires_at: TimestampSchema.openapi({
      description: 'Until then deliveries carry both signatures; now or past when 0 was asked.',
    }),
  })
  .openapi('RotatedWebhookSecret');
