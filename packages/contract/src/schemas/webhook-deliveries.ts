import { z } from '@hono/zod-openapi';
import { BUSINESS_EVENT_NAMES } from '../catalogue/index';
import { pageQueryShape, TimestampSchema, UuidSchema } from './common';
import { WEBHOOK_TEST_EVENT } from './webhooks';

/** How far back `recover` replays failed deliveries. */
export const RECOVER_MAX_DAYS = 30;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDeliverySchema = z
  .object({
    id: UuidSchema.openapi({
      description: 'Sent as `X-Service-Delivery-Id` and `webhook-id`; the same for every attempt.',
    }),
    subscription_id: UuidSchema,
    event_id: UuidSchema,
    event_type: z.string().openapi({ example: 'sales_order.created' }),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().openapi({ description: 'Attempts made so far.' }),
    next_attempt_at: TimestampSchema.nullable(),
    last_response_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryAttemptSchema = z
  .object({
    attempt: z.number().int().openapi({ example: 1 }),
    manual: z.boolean().openapi({ description: 'A replay asked for by a user.' }),
    started_at: TimestampSchema,
    duration_ms: z.number().int(),
    response_status: z.number().int().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .openapi({ description: 'The start of the response body.' }),
    error: z.string().nullable().openapi({
      description: 'Why the attempt failed without a response (timeout, refused address, ...).',
    }),
  })
  .openapi('WebhookDeliveryAttempt');

export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({
  attempt_log: z
    .array(WebhookDeliveryAttemptSchema)
    .openapi({ description: 'Every attempt, oldest first.' }),
}).openapi('WebhookDeliveryDetail');

export const WebhookDeliveryListSchema = z
  .object({
    data: z.array(WebhookDeliverySchema),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('WebhookDeliveryList');

export const WebhookDeliveryListQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: z
    .enum([...BUSINESS_EVENT_NAMES, WEBHOOK_TEST_EVENT])
    .optional()
    .openapi({ description: 'Only deliveries of this event type.' }),
  ...pageQueryShape(200),
});

export const DeliveryParamsSchema = z.object({
  id: UuidSchema.openapi({ param: { name: 'id', in: 'path' } }),
  did: UuidSchema.openapi({ param: { name: 'did', in: 'path' } }),
});

export const RecoverWebhookDeliveriesBodySchema = z
  .object({
    since: TimestampSchema.openapi({
      description: `Replay the failed deliveries created, or attempted, since then: not in the future, and at most ${RECOVER_MAX_DAYS} days back or no earlier than the minute of the subscription's \`failing_since\`.`,
    }),
  })
  .openapi('RecoverWebhookDeliveriesRequest');

export const RecoveredWebhookDeliveriesSchema = z
  .object({
    recovered: z.number().int().openapi({ description: 'Failed deliveries queued again.' }),
  })
  .openapi('RecoveredWebhookDeliveries');
