import type { SubscriptionChange } from '@erp/contract';
import type { PaymentProvider } from '../env';

/** A provider event after `parse`: its idempotency key and what (if anything) to tell the portal. */
export interface ParsedPaymentEvent {
  /** Unique per provider: the event id, or a hash of the body when the provider has none. */
  event_key: string;
  event_type: string;
  /** Present when the event is to be forwarded (outcome `queued`). */
  change?: SubscriptionChange;
  /** Why nothing is forwarded (outcome `ignored`): unknown type, missing metadata, ... */
  ignored_reason?: string;
}

/** One payment provider: its signature scheme and its event vocabulary. */
export interface PaymentAdapter {
  provider: PaymentProvider;
  /** Checks the provider's signature on the raw body; throws `signature_invalide` otherwise. */
  verify(rawBody: string, headers: Headers, secret: string | undefined, now: Date): void;
  /** Maps a verified, JSON-parsed payload; throws `requete_invalide` when it is not an event at all. */
  parse(payload: unknown, rawBody: string): ParsedPaymentEvent;
}
