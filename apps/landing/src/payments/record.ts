import { jobs } from '@erp/contract';
import { enqueueJob, type ProviderEventOutcome } from '@erp/db';
import type { LandingDeps } from '../deps';
import type { PaymentProvider } from '../env';
import type { ParsedPaymentEvent } from './adapter';
import { lockSubscription, type RoutedEvent, routeFacts } from './route';

export interface RecordedPaymentEvent {
  /** The provider had delivered this event before: nothing was stored or enqueued this time. */
  duplicate: boolean;
  outcome: ProviderEventOutcome;
  /** Why it is ignored or waiting (logged, not answered). */
  reason?: string;
}

/**
 * Stores an event once, decides what it does (route.ts) and, in the same transaction, enqueues
 * its forwarding to the portal when it is `queued`. A concurrent redelivery waits on the first
 * one's lock or row and then finds it: one row and one job whatever the timing.
 */
export async function recordPaymentEvent(
  deps: Pick<LandingDeps, 'db' | 'now'>,
  provider: PaymentProvider,
  event: ParsedPaymentEvent,
): Promise<RecordedPaymentEvent> {
  return deps.db.transaction().execute(async (trx) => {
    const facts = event.facts;
    if (facts) await lockSubscription(trx, provider, facts.provider_subscription_id);
    const earlier = await trx
      .selectFrom('landing.provider_events')
      .select('outcome')
      .where('provider', '=', provider)
      .where('event_key', '=', event.event_key)
      .executeTakeFirst();
    if (earlier) return { duplicate: true, outcome: earlier.outcome };

    const routed: RoutedEvent = facts
      ? await routeFacts(trx, provider, facts, deps.now())
      : { outcome: 'ignored', reason: event.ignored_reason };
    const inserted = await trx
      .insertInto('landing.provider_events')
      .values({
        provider,
        event_key: event.event_key,
        event_type: event.event_type,
        outcome: routed.outcome,
        reason: routed.reason ?? null,
        change: routed.change ? JSON.stringify(routed.change) : null,
        provider_customer_id: facts?.provider_customer_id ?? null,
        provider_subscription_id: facts?.provider_subscription_id ?? null,
      })
      // Without facts there is no lock: two deliveries of an ignored event may race to here.
      .onConflict((conflict) => conflict.columns(['provider', 'event_key']).doNothing())
      .returning('outcome')
      .executeTakeFirst();
    if (!inserted) return { duplicate: true, outcome: 'ignored' };
    if (routed.outcome === 'queued') {
      await enqueueJob(trx, jobs.forwardPaymentEvent, { provider, event_key: event.event_key });
    }
    return { duplicate: false, outcome: routed.outcome, reason: routed.reason };
  });
}
