import { invalidRequest } from '@erp/http';
import { z } from 'zod';
import type { ParsedPaymentEvent, PaymentAdapter } from './adapter';
import {
  eventTimestamp,
  IdOrObjectSchema,
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
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  /** Unix seconds: when the change happened (`event_at`). */
  created: z.unknown().optional(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

const PriceSchema = z.looseObject({ lookup_key: z.string().nullish() }).nullish();

const SessionSchema = z.looseObject({
  id: z.string(),
  mode: z.string().nullish(),
  subscription: IdOrObjectSchema.nullish(),
  customer_details: z
    .looseObject({ email: z.string().nullish(), name: z.string().nullish() })
    .nullish(),
  metadata: MetadataSchema,
});

const InvoiceSchema = z.looseObject({
  // Before API version 2025-03-31.basil: `subscription` and `subscription_details` at the top.
  subscription: IdOrObjectSchema.nullish(),
  subscription_details: z.looseObject({ metadata: MetadataSchema }).nullish(),
  parent: z
    .looseObject({
      subscription_details: z
        .looseObject({ subscription: IdOrObjectSchema.nullish(), metadata: MetadataSchema })
        .nullish(),
    })
    .nullish(),
  lines: z
    .looseObject({
      data: z.array(
        z.looseObject({
          period: z.looseObject({ end: z.number() }).nullish(),
          price: PriceSchema,
          metadata: MetadataSchema,
        }),
      ),
    })
    .nullish(),
});

const SubscriptionSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  metadata: MetadataSchema,
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
  parse(payload) {
    const event = EventSchema.safeParse(payload);
    if (!event.success) throw invalidRequest('body', event.error);
    const { id, type, data } = event.data;
    const at = eventTimestamp(event.data.created);
    if (type === 'checkout.session.completed') return fromSession(id, type, data.object, at);
    if (type === 'invoice.paid') return fromInvoice(id, type, data.object, at);
    if (SUBSCRIPTION_EVENTS.has(type)) return fromSubscription(id, type, data.object, at);
    return ignored(id, type, 'unsupported_event_type');
  },
};

function fromSession(
  id: string,
  type: string,
  object: unknown,
  eventAt: string | undefined,
): ParsedPaymentEvent {
  const parsed = SessionSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const session = parsed.data;
  if (session.mode !== 'subscription' || !session.subscription)
    return ignored(id, type, 'not_a_subscription');
  const metadata = readMetadata(session.metadata);
  return settleChange(id, type, {
    provision: provisionDraft(metadata, session.customer_details ?? {}, session.id),
    subscription: {
      tenant: metadata.tenant_slug,
      plan_code: metadata.plan_code,
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: session.subscription,
      event_at: eventAt,
    },
  });
}

function fromInvoice(
  id: string,
  type: string,
  object: unknown,
  eventAt: string | undefined,
): ParsedPaymentEvent {
  const parsed = InvoiceSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const invoice = parsed.data;
  const details = invoice.parent?.subscription_details;
  const subscriptionId = details?.subscription ?? invoice.subscription;
  if (!subscriptionId) return ignored(id, type, 'not_a_subscription');
  const line = invoice.lines?.data[0];
  const metadata = readMetadata(
    details?.metadata,
    invoice.subscription_details?.metadata,
    line?.metadata,
  );
  return settleChange(id, type, {
    subscription: {
      tenant: metadata.tenant_slug,
      plan_code: metadata.plan_code ?? line?.price?.lookup_key ?? undefined,
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: subscriptionId,
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
): ParsedPaymentEvent {
  const parsed = SubscriptionSchema.safeParse(object);
  if (!parsed.success) return malformedEvent(id, type, parsed.error);
  const subscription = parsed.data;
  const status =
    type === 'customer.subscription.deleted' ? 'canceled' : STATUSES[subscription.status];
  if (!status) return ignored(id, type, 'unsupported_status');
  const item = subscription.items?.data[0];
  const metadata = readMetadata(subscription.metadata);
  return settleChange(id, type, {
    subscription: {
      tenant: metadata.tenant_slug,
      plan_code: metadata.plan_code ?? item?.price?.lookup_key ?? undefined,
      status,
      provider: 'stripe',
      provider_subscription_id: subscription.id,
      current_period_end: toIsoTimestamp(
        item?.current_period_end ?? subscription.current_period_end,
      ),
      event_at: eventAt,
    },
  });
}
