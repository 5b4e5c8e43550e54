import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { WEBHOOK_VERSION } from '../schemas/webhooks';
import type { Resource } from './define';
import { eventPayloads, webhookTestPayload } from './event-payloads';

/** Headers of every delivery attempt (SPEC §7): component name → header and description. */
const DELIVERY_HEADERS: Record<string, { name: string; description: string; example?: string }> = {
  XServiceEvent: { name: 'X-Service-Event', description: 'The event type (`type` of the body).' },
  XServiceDeliveryId: {
    name: 'X-Service-Delivery-Id',
    description:
      'The delivery (`delivery_id` of the body, a UUID): the same for every attempt and replay, so deduplicate on it.',
  },
  XServiceTimestamp: {
    name: 'X-Service-Timestamp',
    description: 'Unix seconds of this attempt (each attempt is signed afresh).',
    example: '1795000000',
  },
  XServiceWebhookVersion: {
    name: 'X-Service-Webhook-Version',
    description: "The subscription's pinned payload version (YYYY-MM-DD).",
    example: WEBHOOK_VERSION,
  },
  XServiceSignature: {
    name: 'X-Service-Signature',
    description:
      '`sha256=<hex HMAC-SHA256 of "<X-Service-Timestamp>.<raw body>">`, keyed with the secret string’s UTF-8 bytes; `sha256=<new>,sha256=<old>` while a rotation overlaps. Compare in constant time; refuse old timestamps.',
    example: 'sha256=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  },
  WebhookId: { name: 'webhook-id', description: 'Standard Webhooks: the delivery id.' },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    description: 'Standard Webhooks: Unix seconds of this attempt.',
  },
  WebhookSignature: {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with the base64-decoded part of `whsec_…`; space-separated while a rotation overlaps.',
  },
};

const responses = {
  '2XX': { description: 'Delivered. Answer within 15 s; the body is ignored.' },
  '410': { description: 'Gone: the subscription is disabled.' },
  default: {
    description:
      'Anything else, or no answer within 15 s, is retried: 60 s × attempt² (±10 %; a longer `Retry-After` on 429/503 is honoured), up to 20 attempts, then `failed`.',
  },
};

/**
 * The OpenAPI `webhooks:` section: one entry per event the resources record, plus the test
 * delivery, each with its named payload (so generated clients get one type per event). No
 * union of them all as a component: nothing in the document refers to it (Spectral's
 * oas3-unused-component), and a client has it as the union of the webhooks' bodies. The
 * headers are parameter components, written once.
 */
export function registerWebhooks(registry: OpenAPIRegistry, resources: Iterable<Resource>): void {
  for (const [component, { name, description, example }] of Object.entries(DELIVERY_HEADERS)) {
    registry.registerComponent('parameters', component, {
      name,
      in: 'header',
      required: true,
      description,
      schema: { type: 'string', ...(example ? { example } : {}) },
    });
  }
  const parameters = Object.keys(DELIVERY_HEADERS).map((c) => ({
    $ref: `#/components/parameters/${c}`,
  }));
  const all = [...eventPayloads(resources), webhookTestPayload];
  for (const { type, description, schema } of all) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      tags: ['Webhooks'],
      summary: description,
      parameters,
      request: { body: { required: true, content: { 'application/json': { schema } } } },
      responses,
    });
  }
}
