import { createHash } from 'node:crypto';
import { invalidRequest } from '@erp/http';
import { z } from 'zod';
import type { PaymentAdapter } from './adapter';
import {
  eventTimestamp,
  IdSchema,
  ignored,
  MetadataSchema,
  malformedEvent,
  purchaseDraft,
  readMetadata,
  settleFacts,
  toIsoTimestamp,
  UNMAPPED_PRICE,
} from './change';
import {
  isSha256Hex,
  matchesHmac,
  requireHeader,
  requireSecret,
  signatureInvalid,
} from './signature';

const EventSchema = z.looseObject({
  meta: z.looseObject({ event_name: z.string().min(1).max(255), custom_data: MetadataSchema }),
  data: z.looseObject({
    id: IdSchema,
    attributes: z.looseObject({}),
  }),
});

const SubscriptionSchema = z.looseObject({
  customer_id: IdSchema,
  /** The variant bought names the plan (through `PAYMENT_PLAN_PRICES`). */
  variant_id: IdSchema.nullish(),
  status: z.string(),
  user_email: z.string().nullish(),
  user_name: z.string().nullish(),
  renews_at: z.string().nullish(),
  ends_at: z.string().nullish(),
  /** When the subscription last changed (`event_at`): Lemon Squeezy's events carry no time of their own. */
  updated_at: z.unknown().optional(),
  created_at: z.unknown().optional(),
});

const STATUSES: Record<string, string> = {
  on_trial: 'trialing',
  active: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'canceled',
  cancelled: 'canceled',
  expired: 'expired',
};

/** These events say the status themselves, whatever the attributes lag behind with. */
const FINAL_STATUSES: Record<string, string> = {
  subscription_cancelled: 'canceled',
  subscription_expired: 'expired',
};

const SUBSCRIPTION_EVENTS = new Set([
  'subscription_created',
  'subscription_updated',
  'subscription_cancelled',
  'subscription_expired',
]);

/**
 * Lemon Squeezy: `X-Signature: <hex HMAC-SHA256 of the body>`. It signs no timestamp and sends
 * no event id, so an event is keyed by the SHA-256 of its body (a redelivery is byte-identical).
 */
export const lemonSqueezyAdapter: PaymentAdapter = {
  provider: 'lemonsqueezy',
  verify(rawBody, headers, secret) {
    const key = requireSecret(secret);
    const signature = requireHeader(headers, 'x-signature').trim();
    if (!isSha256Hex(signature)) throw signatureInvalid('malformed_header');
    if (!matchesHmac(key, rawBody, [signature])) throw signatureInvalid('no_matching_signature');
  },
  parse(payload, rawBody, plans) {
    const key = createHash('sha256').update(rawBody, 'utf8').digest('hex');
    const event = EventSchema.safeParse(payload);
    if (!event.success) throw invalidRequest('body', event.error);
    const { meta, data } = event.data;
    const type = meta.event_name;
    // An order names no subscription to bind: its `subscription_created` is the purchase.
    if (type === 'order_created') return ignored(key, type, 'purchase_is_subscription_created');
    if (!SUBSCRIPTION_EVENTS.has(type)) return ignored(key, type, 'unsupported_event_type');
    const parsed = SubscriptionSchema.safeParse(data.attributes);
    if (!parsed.success) return malformedEvent(key, type, parsed.error);
    const subscription = parsed.data;
    const status = FINAL_STATUSES[type] ?? STATUSES[subscription.status];
    if (!status) return ignored(key, type, 'unsupported_status');
    const plan = plans.planFor({ id: subscription.variant_id });
    if (!plan) return ignored(key, type, UNMAPPED_PRICE);
    // A live subscription renews; a cancelled or expired one ends.
    const periodEnd =
      status === 'canceled' || status === 'expired'
        ? (subscription.ends_at ?? subscription.renews_at)
        : (subscription.renews_at ?? subscription.ends_at);
    const metadata = readMetadata(meta.custom_data);
    return settleFacts(key, type, {
      provider_customer_id: subscription.customer_id,
      provider_subscription_id: data.id,
      ...(type === 'subscription_created'
        ? {
            provision: purchaseDraft(
              metadata,
              { email: subscription.user_email, name: subscription.user_name },
              metadata.reference,
            ),
          }
        : {}),
      subscription: {
        plan_code: plan,
        status,
        current_period_end: toIsoTimestamp(periodEnd),
        event_at:
          eventTimestamp(subscription.updated_at) ?? eventTimestamp(subscription.created_at),
      },
    });
  },
};
