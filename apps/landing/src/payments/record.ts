import { jobs } from '@erp/contract';
import { enqueueJob, type ProviderEventOutcome } from '@erp/db';
import type { LandingDeps } from '../deps';
import type { PaymentProvider } from '../env';
import type { ParsedPaymentEvent } from './adapter';

export interface RecordedPaymentEvent {
  /** The provider had delivered this event before: nothing was stored or enqueued this time. */
  duplicate: boolean;
  outcome: ProviderEventOutcome;
}

/**
 * Stores an event once and, in the same transaction, enqueues its forwarding to the portal
 * when it carries a change. A concurrent redelivery waits on the first one's row and then
 * finds it: one row and one job whatever the timing.
 */
export async function recordPaymentEvent(
  deps: Pick<LandingDeps, 'db'>,
  provider: PaymentProvider,
  event: ParsedPaymentEvent,
): Promise<RecordedPaymentEvent> {
  const outcome: ProviderEventOutcome = event.change ? 'queued' : 'ignored';
  return deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('landing.provider_events')
      .values({
        provider,
        event_key: event.event_key,
        event_type: event.event_type,
        outcome,
        reason: event.ignored_reason ?? null,
        change: event.change ? JSON.stringify(event.change) : null,
      })
      .onConflict((conflict) => conflict.columns(['provider', 'event_key']).doNothing())
      .returning('outcome')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('landing.provider_events')
        .select('outcome')
        .where('provider', '=', provider)
        .where('event_key', '=', event.event_key)
        .executeTakeFirstOrThrow();
      return { duplicate: true, outcome: existing.outcome };
    }
    if (event.change) {
      await enqueueJob(trx, jobs.forwardPaymentEvent, { provider, event_key: event.event_key });
    }
    return { duplicate: false, outcome };
  });
}
