import { invalidRequest } from '@erp/http';
import { z } from 'zod';
import type { ParsedPaymentEvent, PaymentAdapter } from './adapter';
import {
  eventTimestamp,
  ignored,
  MetadataSchema,
  malformedEvent,
  purchaseDraft,
  readMetadata,
  settleFacts,
  toIsoTimestamp,
  UNMAPPED_PRICE,
} from './change';
import type { PlanResolver } from './plan-prices';
import {
  headerSignatures,
  headerTimestamp,
  parseSignatureHeader,
  requireHeader,
  requireSecret,
  verifyTimestamped,
} from './signature';

const EventSchema = z.looseObject({
  event_id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  /** When the change happened (`event_at`). */
  occurred_at: z.unknown().optional(),
  data: z.looseObject({}),
});

const PeriodSchema = z.looseObject({ ends_at: z.string().nullish() }).nullish();

/** The items bought: the first one's price id names the plan (through `PAYMENT_PLAN_PRICES`). */
const ItemsSchema = z
  .array(z.looseObject({ price: z.looseObject({ id: z.string().nullish() }).nullish() }))
  .nullish();

const TransactionSchema = z.looseObject({
  id: z.string(),
  /** `web`, `api`: a checkout; `subscription_recurring`…: a renewal, no purchase. */
  origin: z.string().nullish(),
  customer_id: z.string().nullish(),
  subscription_id: z.string().nullish(),
  custom_data: MetadataSchema,
  billing_period: PeriodSchema,
  items: ItemsSchema,
});

const SubscriptionSchema = z.looseObject({
  id: z.string(),
  customer_id: z.string(),
  status: z.string(),
  current_billing_period: PeriodSchema,
  items: ItemsSchema,
});

const STATUSES: Record<string, string> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  paused: 'canceled',
  canceled: 'canceled',
};

const SUBSCRIPTION_EVENTS = new Set([
  'subscription.created',
  'subscription.updated',
  'subscription.canceled',
]);

/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>[;h1=…]` over `<ts>:<body>`, keyed by
 * `event_id`. Paddle documents no tolerance; Stripe's 300 s (either way) is applied.
 */
export const paddleAdapter: PaymentAdapter = {
  provider: 'paddle',
  verify(rawBody, headers, secret, now) {
    const key = requireSecret(secret);
    const parts = parseSignatureHeader(requireHeader(headers, 'paddle-signature'), ';');
    const timestamp = headerTimestamp(parts, 'ts');
    const signatures = headerSignatures(parts, 'h1');
    verifyTimestamped(key, timestamp, `${timestamp}:${rawBody}`, signatures, now);
  },
  parse(payload, _rawBody, plans) {
    const event = EventSchema.safeParse(payload);
    if (!event.success) throw invalidRequest('body', event.error);
    const { event_id: id, event_type: type, data } = event.data;
    const at = eventTimestamp(event.data.occurred_at);
    if (type === 'transaction.completed') return fromTransaction(id, type, data, at, plans);
    if (SUBSCRIPTION_EVENTS.has(type)) return fromSubscription(id, type, data, at, plans);
    return ignored(id, type, 'unsupported_event_type');
  },
};

/** The first purchase and its subscription's state: Paddle's transaction says both. */
function fromTransaction(
  id: string,
  type: string,
  data: unknown,
  eventAt: string | undefined,
  plans: PlanResolver,
): ParsedPaymentEvent {
  const parsed = TransactionSchema.safeParse(data);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const transaction = parsed.data;
  if (!transaction.subscription_id) return ignored(id, type, 'not_a_subscription');
  const plan = plans.planFor(transaction.items?.[0]?.price);
  if (!plan) return ignored(id, type, UNMAPPED_PRICE);
  const metadata = readMetadata(transaction.custom_data);
  return settleFacts(id, type, {
    provider_customer_id: transaction.customer_id,
    provider_subscription_id: transaction.subscription_id,
    // Paddle's events carry no buyer: the admin is the start's e-mail or custom_data's.
    ...(transaction.origin?.startsWith('subscription_')
      ? {}
      : { provision: purchaseDraft(metadata, {}, metadata.reference) }),
    subscription: {
      plan_code: plan,
      status: 'active',
      current_period_end: toIsoTimestamp(transaction.billing_period?.ends_at),
      event_at: eventAt,
    },
  });
}

function fromSubscription(
  id: string,
  type: string,
  data: unknown,
  eventAt: string | undefined,
  plans: PlanResolver,
): ParsedPaymentEvent {
  const parsed = SubscriptionSchema.safeParse(data);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const subscription = parsed.data;
  const status = type === 'subscription.canceled' ? 'canceled' : STATUSES[subscription.status];
  if (!status) return ignored(id, type, 'unsupported_status');
  const plan = plans.planFor(subscription.items?.[0]?.price);
  if (!plan) return ignored(id, type, UNMAPPED_PRICE);
  return settleFacts(id, type, {
    provider_customer_id: subscription.customer_id,
    provider_subscription_id: subscription.id,
    subscription: {
      plan_code: plan,
      status,
      current_period_end: toIsoTimestamp(subscription.current_billing_period?.ends_at),
      event_at: eventAt,
    },
  });
}
