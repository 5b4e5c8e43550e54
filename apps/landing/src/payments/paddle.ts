import { invalidRequest } from '@erp/http';
import { z } from 'zod';
import type { ParsedPaymentEvent, PaymentAdapter } from './adapter';
import {
  eventTimestamp,
  ignored,
  MetadataSchema,
  malformedEvent,
  provisionDraft,
  readMetadata,
  settleChange,
  toIsoTimestamp,
} from './change';
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

/** A Paddle price may name our plan in its own `custom_data`. */
const ItemsSchema = z
  .array(z.looseObject({ price: z.looseObject({ custom_data: MetadataSchema }).nullish() }))
  .nullish();

const TransactionSchema = z.looseObject({
  id: z.string(),
  subscription_id: z.string().nullish(),
  custom_data: MetadataSchema,
  billing_period: PeriodSchema,
  items: ItemsSchema,
});

const SubscriptionSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  custom_data: MetadataSchema,
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
  parse(payload) {
    const event = EventSchema.safeParse(payload);
    if (!event.success) throw invalidRequest('body', event.error);
    const { event_id: id, event_type: type, data } = event.data;
    const at = eventTimestamp(event.data.occurred_at);
    if (type === 'transaction.completed') return fromTransaction(id, type, data, at);
    if (SUBSCRIPTION_EVENTS.has(type)) return fromSubscription(id, type, data, at);
    return ignored(id, type, 'unsupported_event_type');
  },
};

function pricePlan(items: z.infer<typeof ItemsSchema>): Record<string, unknown> | undefined {
  const custom = items?.[0]?.price?.custom_data;
  return custom ? { plan_code: custom.plan_code } : undefined;
}

function fromTransaction(
  id: string,
  type: string,
  data: unknown,
  eventAt: string | undefined,
): ParsedPaymentEvent {
  const parsed = TransactionSchema.safeParse(data);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const transaction = parsed.data;
  if (!transaction.subscription_id) return ignored(id, type, 'not_a_subscription');
  const metadata = readMetadata(transaction.custom_data, pricePlan(transaction.items));
  return settleChange(id, type, {
    provision: provisionDraft(metadata, {}, transaction.id),
    subscription: {
      tenant: metadata.tenant_slug,
      plan_code: metadata.plan_code,
      status: 'active',
      provider: 'paddle',
      provider_subscription_id: transaction.subscription_id,
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
): ParsedPaymentEvent {
  const parsed = SubscriptionSchema.safeParse(data);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const subscription = parsed.data;
  const status = type === 'subscription.canceled' ? 'canceled' : STATUSES[subscription.status];
  if (!status) return ignored(id, type, 'unsupported_status');
  const metadata = readMetadata(subscription.custom_data, pricePlan(subscription.items));
  return settleChange(id, type, {
    subscription: {
      tenant: metadata.tenant_slug,
      plan_code: metadata.plan_code,
      status,
      provider: 'paddle',
      provider_subscription_id: subscription.id,
      current_period_end: toIsoTimestamp(subscription.current_billing_period?.ends_at),
      event_at: eventAt,
    },
  });
}
