/**
 * Where a provider event's facts go (SPEC §8): to the tenant bound to its customer and
 * subscription, or, before any binding, into a first purchase once both its purchase (checkout)
 * and its plan (a price) are known, whatever the order they arrive in. Runs inside the
 * transaction that stores the event, under a lock per provider subscription, so two events of
 * one subscription (and the worker's binding) are decided one after the other.
 */
import {
  ProviderPurchaseSchema,
  type ProviderState,
  type SubscriptionChange,
  SubscriptionChangeSchema,
} from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';
import type { PaymentProvider } from '../env';
import type { ProviderFacts } from './change';

export interface RoutedEvent {
  outcome: 'queued' | 'waiting' | 'ignored';
  reason?: string;
  /** Queued: what the worker forwards; waiting: what the event said, for the purchase to come. */
  change?: SubscriptionChange;
}

/** Serialises the decisions about one provider subscription (the worker's binding takes it too). */
export async function lockSubscription(
  trx: Kysely<Database>,
  provider: PaymentProvider | string,
  subscriptionId: string,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`landing:subscription:${provider}:${subscriptionId}`}, 0))`.execute(
    trx,
  );
}

/** Decides what an event with facts does (the caller holds `lockSubscription`). */
export async function routeFacts(
  trx: Kysely<Database>,
  provider: PaymentProvider,
  facts: ProviderFacts,
  now: Date,
): Promise<RoutedEvent> {
  const ids = {
    provider_customer_id: facts.provider_customer_id,
    provider_subscription_id: facts.provider_subscription_id,
  };
  const binding = await trx
    .selectFrom('landing.provider_bindings')
    .select('provider_customer_id')
    .where('provider', '=', provider)
    .where('provider_subscription_id', '=', facts.provider_subscription_id)
    .executeTakeFirst();
  if (binding) {
    if (binding.provider_customer_id !== facts.provider_customer_id)
      return { outcome: 'ignored', reason: 'customer_mismatch' };
    if (!facts.subscription) return { outcome: 'ignored', reason: 'already_provisioned' };
    return { outcome: 'queued', change: { ...ids, subscription: facts.subscription } };
  }

  let purchase: SubscriptionChange['provision'];
  if (facts.provision) {
    const completed = await completePurchase(trx, facts.provision, now);
    if (typeof completed === 'string') return { outcome: 'ignored', reason: completed };
    purchase = completed;
  }
  const earlier = await earlierFacts(trx, provider, facts);
  const current: SubscriptionChange = {
    ...ids,
    provision: purchase,
    subscription: facts.subscription,
  };
  if (earlier.some((e) => e.outcome === 'queued' && e.change.provision)) {
    // A provisioning of this subscription is on its way: its binding wakes this event.
    return { outcome: 'waiting', reason: 'awaiting_binding', change: current };
  }
  const provision = purchase ?? earlier.find((e) => e.change.provision)?.change.provision;
  const state = newestState([...earlier.map((e) => e.change.subscription), facts.subscription]);
  if (!provision) return { outcome: 'waiting', reason: 'awaiting_purchase', change: current };
  if (!state) return { outcome: 'waiting', reason: 'awaiting_plan', change: current };
  return { outcome: 'queued', change: { ...ids, provision, subscription: state } };
}

/**
 * The purchase with its claim reference checked (one landing issued and still valid, else
 * dropped: a provider id or a made-up value claims nothing) and its admin completed from the
 * onboarding start. A string: why the event is ignored.
 */
async function completePurchase(
  trx: Kysely<Database>,
  draft: NonNullable<ProviderFacts['provision']>,
  now: Date,
): Promise<NonNullable<SubscriptionChange['provision']> | string> {
  const started = draft.reference_sha256
    ? await trx
        .selectFrom('landing.onboarding_references')
        .select('email')
        .where('reference_sha256', '=', draft.reference_sha256)
        .where('expires_at', '>', now)
        .executeTakeFirst()
    : undefined;
  const email = draft.admin.email ?? started?.email ?? undefined;
  const parsed = ProviderPurchaseSchema.safeParse({
    ...draft,
    // A display name is cosmetic: without one, the address stands in rather than refusing a paid order.
    admin: { email, name: draft.admin.name ?? email },
    reference_sha256: started ? draft.reference_sha256 : undefined,
  });
  if (parsed.success) return parsed.data;
  const paths = [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ');
  return `incomplete_event: provision.${paths}`;
}

/** The changes stored for this subscription and customer that still wait or are queued. */
async function earlierFacts(trx: Kysely<Database>, provider: string, facts: ProviderFacts) {
  const rows = await trx
    .selectFrom('landing.provider_events')
    .select(['outcome', 'change'])
    .where('provider', '=', provider)
    .where('provider_subscription_id', '=', facts.provider_subscription_id)
    .where('provider_customer_id', '=', facts.provider_customer_id)
    .where('outcome', 'in', ['waiting', 'queued'])
    .orderBy('received_at')
    .execute();
  return rows.flatMap((row) => {
    const change = SubscriptionChangeSchema.safeParse(row.change);
    return change.success ? [{ outcome: row.outcome, change: change.data }] : [];
  });
}

/** The state the provider said last (`event_at`; received last among equals or unknowns). */
function newestState(states: (ProviderState | undefined)[]): ProviderState | undefined {
  let newest: ProviderState | undefined;
  for (const state of states) {
    if (!state) continue;
    const at = state.event_at ? Date.parse(state.event_at) : Number.NEGATIVE_INFINITY;
    const best = newest?.event_at ? Date.parse(newest.event_at) : Number.NEGATIVE_INFINITY;
    if (!newest || at >= best) newest = state;
  }
  return newest;
}
