import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from './secrets';

/** What one delivery attempt signs: the exact body bytes and the attempt's own timestamp. */
export interface SignedDelivery {
  deliveryId: string;
  eventType: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact request body. */
  body: string;
  /** YYYY-MM-DD, pinned per subscription. */
  webhookVersion: string;
  /** The current secret first, then the previous one while a rotation overlaps. */
  secrets: readonly string[];
}

/**
 * `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, keyed with the secret string's UTF-8
 * bytes exactly as shown to the user (SPEC §7).
 */
export function serviceSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/**
 * Standard Webhooks' `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * base64-decoded part of `whsec_…`, so receivers can use any Standard Webhooks library.
 */
export function standardSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** Every header of a delivery attempt (SPEC §7), both signature schemes included. */
export function deliveryHeaders(delivery: SignedDelivery): Record<string, string> {
  const { deliveryId, timestamp, body, secrets } = delivery;
  return {
    'content-type': 'application/json',
    'user-agent': 'erp-webhooks/1',
    'x-service-event': delivery.eventType,
    'x-service-delivery-id': deliveryId,
    'x-service-timestamp': String(timestamp),
    'x-service-webhook-version': delivery.webhookVersion,
    'x-service-signature': secrets.map((s) => serviceSignature(s, timestamp, body)).join(','),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map((s) => standardSignature(s, deliveryId, timestamp, body))
      .join(' '),
  };
}
