import { invalidRequest } from '@erp/http';
import { z } from 'zod';
import type { ParsedPaymentEvent, PaymentAdapter } from './adapter';
import {
  eventTimestamp,
  IdOrObjectSchema,
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
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  /** Unix seconds: when the change happened (`event_at`). */
  created: z.unknown().optional(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/** A price as Stripe embeds it (subscription items, older invoice lines). */
const PriceSchema = z
  .looseObject({ id: z.string().nullish(), lookup_key: z.string().nullish() })
  .nullish();

const SessionSchema = z.looseObject({
  id: z.string(),
  mode: z.string().nullish(),
  customer: IdOrObjectSchema.nullish(),
  subscription: IdOrObjectSchema.nullish(),
  /** The reference landing issued (`/api/onboarding/start`), set when the checkout was opened. */
  client_reference_id: z.string().max(200).nullish(),
  customer_details: z
    .looseObject({ email: z.string().nullish(), name: z.string().nullish() })
    .nullish(),
  metadata: MetadataSchema,
});

const InvoiceSchema = z.looseObject({
  customer: IdOrObjectSchema.nullish(),
  // Before API version 2025-03-31.basil: `subscription` at the top.
  subscription: IdOrObjectSchema.nullish(),
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: IdOrObjectSchema.nullish() }).nullish(),
    })
    .nullish(),
  lines: z
    .looseObject({
      data: z.array(
        z.looseObject({
          period: z.looseObject({ end: z.number() }).nullish(),
          // Before basil: the price object; since: its id under `pricing.price_details`.
          price: PriceSchema,
          pricing: z
            .looseObject({
              price_details: z.looseObject({ price: IdOrObjectSchema.nullish() }).nullish(),
            })
            .nullish(),
        }),
      ),
    })
    .nullish(),
});

const SubscriptionSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  customer: IdOrObjectSchema,
  // Before API version 2025-03-31.basil; since then the period is per item.
  current_period_end: z.number().nullish(),
  items: z
    .looseObject({
      data: z.array(
        z.looseObject({ current_period_end: z.number().nullish(), price: PriceSchema }),
      ),
    })
    .nullish(),
});

const STATUSES: Record<string, string> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'expired',
  paused: 'canceled',
};

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

/** Stripe: `Stripe-Signature: t=<ts>,v1=<hex>[,v1=…]` over `<t>.<body>`; events keyed by `id`. */
export const stripeAdapter: PaymentAdapter = {
  provider: 'stripe',
  verify(rawBody, headers, secret, now) {
    const key = requireSecret(secret);
    const parts = parseSignatureHeader(requireHeader(headers, 'stripe-signature'), ',');
    const timestamp = headerTimestamp(parts, 't');
    // Other schemes (`v0` in test mode) are not ours to check.
    const signatures = headerSignatures(parts, 'v1');
    verifyTimestamped(key, timestamp, `${timestamp}.${rawBody}`, signatures, now);
  },
  parse(payload, _rawBody, plans) {
    const event = EventSchema.safeParse(payload);
    if (!event.success) throw invalidRequest('body', event.error);
    const { id, type, data } = event.data;
    const at = eventTimestamp(event.data.created);
    if (type === 'checkout.session.completed') return fromSession(id, type, data.object);
    if (type === 'invoice.paid') return fromInvoice(id, type, data.object, at, plans);
    if (SUBSCRIPTION_EVENTS.has(type)) return fromSubscription(id, type, data.object, at, plans);
    return ignored(id, type, 'unsupported_event_type');
  },
};

/** The first purchase: who bought, the tenant wished for, the claim reference. No plan: a
 * session's line items are not in the event; its subscription's events say the price. */
function fromSession(id: string, type: string, object: unknown): ParsedPaymentEvent {
  const parsed = SessionSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const session = parsed.data;
  if (session.mode !== 'subscription' || !session.subscription)
    return ignored(id, type, 'not_a_subscription');
  return settleFacts(id, type, {
    provider_customer_id: session.customer,
    provider_subscription_id: session.subscription,
    provision: purchaseDraft(
      readMetadata(session.metadata),
      session.customer_details ?? {},
      session.client_reference_id,
    ),
  });
}

function fromInvoice(
  id: string,
  type: string,
  object: unknown,
  eventAt: string | undefined,
  plans: PlanResolver,
): ParsedPaymentEvent {
  const parsed = InvoiceSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const invoice = parsed.data;
  const subscriptionId = invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
  if (!subscriptionId) return ignored(id, type, 'not_a_subscription');
  const line = invoice.lines?.data[0];
  const price = line?.pricing?.price_details?.price
    ? { id: line.pricing.price_details.price }
    : line?.price;
  const plan = plans.planFor(price);
  if (!plan) return ignored(id, type, UNMAPPED_PRICE);
  return settleFacts(id, type, {
    provider_customer_id: invoice.customer,
    provider_subscription_id: subscriptionId,
    subscription: {
      plan_code: plan,
      status: 'active',
      current_period_end: toIsoTimestamp(line?.period?.end),
      event_at: eventAt,
    },
  });
}

function fromSubscription(
  id: string,
  type: string,
  object: unknown,
  eventAt: string | undefined,
  plans: PlanResolver,
): ParsedPaymentEvent {
  const parsed = SubscriptionSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const subscription = parsed.data;
  const status =
    type === 'customer.subscription.deleted' ? 'canceled' : STATUSES[subscription.status];
  if (!status) return ignored(id, type, 'unsupported_status');
  const item = subscription.items?.data[0];
  const plan = plans.planFor(item?.price);
  if (!plan) return ignored(id, type, UNMAPPED_PRICE);
  return settleFacts(id, type, {
    provider_customer_id: subscription.customer,
    provider_subscription_id: subscription.id,
    subscription: {
      plan_code: plan,
      status,
      current_period_end: toIsoTimestamp(
        item?.current_period_end ?? subscription.current_period_end,
      ),
      event_at: eventAt,
    },
  });
}
