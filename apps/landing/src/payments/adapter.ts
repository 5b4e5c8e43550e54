import type { PaymentProvider } from '../env';
import type { ProviderFacts } from './change';
import type { PlanResolver } from './plan-prices';

/** A provider event after `parse`: its idempotency key and what (if anything) it says. */
export interface ParsedPaymentEvent {
  /** Unique per provider: the event id, or a hash of the body when the provider has none. */
  event_key: string;
  event_type: string;
  /** Present when the event says something about a subscription (route.ts decides what). */
  facts?: ProviderFacts;
  /** Why nothing is forwarded (outcome `ignored`): unknown type, unmapped price, ... */
  ignored_reason?: string;
}

/** One payment provider: its signature scheme and its event vocabulary. */
export interface PaymentAdapter {
  provider: PaymentProvider;
  /** Checks the provider's signature on the raw body; throws `signature_invalide` otherwise. */
  verify(rawBody: string, headers: Headers, secret: string | undefined, now: Date): void;
  /**
   * Maps a verified, JSON-parsed payload, the plan through `plans` (the provider's price only);
   * throws `requete_invalide` when it is not an event at all.
   */
  parse(payload: unknown, rawBody: string, plans: PlanResolver): ParsedPaymentEvent;
}
