/**
 * The sdk's verifyWebhookSignature against what the worker really sends: a subscription to
 * a local receiver, test deliveries from the portal, before and during a secret rotation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, createClient, verifyWebhookSignature } from '@erp/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
}

let platform: Platform;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let client: Client;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  platform = await startPlatform();
  client = createClient({
    baseUrl: platform.portalUrl,
    apiKey: (await createApiKey(platform, ['webhooks'])).key,
    tenantId: 'demo',
  });
});
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Asks the portal for a test delivery and waits until the receiver has it. */
async function testDelivery(subscriptionId: string): Promise<Received> {
  const before = received.length;
  const { error } = await client.post('/api/v1/settings/webhooks/{id}/test', {
    path: { id: subscriptionId },
  });
  expect(error).toBeUndefined();
  return eventually('the test delivery', async () => received[before], 30_000);
}

describe('verifyWebhookSignature with real deliveries', () => {
  it('accepts what the worker sends and refuses every tampering', async () => {
    const { data: subscription, error } = await client.post('/api/v1/settings/webhooks', {
      body: { url: receiverUrl, events: ['sales_order.created'], description: 'sdk e2e' },
    });
    expect(error).toBeUndefined();
    const secret = subscription!.secret;
    const delivery = await testDelivery(subscription!.id);
    const verify = (changes: Partial<Parameters<typeof verifyWebhookSignature>[0]> = {}) =>
      verifyWebhookSignature({
        payload: delivery.body,
        headers: delivery.headers,
        secret,
        ...changes,
      });

    const accepted = await verify();
    expect(accepted.error).toBeUndefined();
    expect(accepted.event?.type).toBe('webhook.test');
    if (accepted.event?.type === 'webhook.test') {
      expect(accepted.event.data.object.subscription_id).toBe(subscription!.id);
      expect(accepted.event.delivery_id).toBe(delivery.headers['x-service-delivery-id']);
    }
    // The same request checked with a Fetch Headers object, as an edge runtime would.
    const fetchHeaders = new Headers(delivery.headers as Record<string, string>);
    expect((await verify({ headers: fetchHeaders })).error).toBeUndefined();

    const reason = async (changes: Parameters<typeof verify>[0]) =>
      (await verify(changes)).error?.params.reason;
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(await reason({ secret: otherSecret })).toBe('no_matching_signature');
    expect(
      await reason({ payload: delivery.body.replace('"webhook.test"', '"webhook.tests"') }),
    ).toBe('no_matching_signature');
    expect(await reason({ payload: `${delivery.body} ` })).toBe('no_matching_signature');
    const sentAt = Number(delivery.headers['x-service-timestamp']) * 1000;
    expect(await reason({ now: new Date(sentAt + 301_000) })).toBe('timestamp_outside_tolerance');
    const signature = String(delivery.headers['x-service-signature']);
    const withSignature = (value: string) => ({
      headers: { ...delivery.headers, 'x-service-signature': value },
    });
    expect(await reason(withSignature(signature.replace('sha256=', 'sha1=')))).toBe(
      'malformed_signature',
    );
    expect(await reason(withSignature(signature.slice(0, -1)))).toBe('malformed_signature');
    expect(
      await reason({ headers: { ...delivery.headers, 'x-service-timestamp': 'yesterday' } }),
    ).toBe('malformed_timestamp');
  });

  it('accepts either secret while a rotation overlaps, then only the new one', async () => {
    const { data: subscription } = await client.post('/api/v1/settings/webhooks', {
      body: { url: receiverUrl, events: ['sales_order.created'] },
    });
    const oldSecret = subscription!.secret;
    const rotated = await client.post('/api/v1/settings/webhooks/{id}/rotate-secret', {
      path: { id: subscription!.id },
      body: { expire_previous_in_hours: 1 },
    });
    expect(rotated.error).toBeUndefined();
    const newSecret = rotated.data!.secret;
    const overlapping = await testDelivery(subscription!.id);
    expect(String(overlapping.headers['x-service-signature']).split(',')).toHaveLength(2);
    for (const secret of [newSecret, oldSecret]) {
      const result = await verifyWebhookSignature({
        payload: overlapping.body,
        headers: overlapping.headers,
        secret,
      });
      expect(result.error).toBeUndefined();
    }

    // 0 hours: a leaked secret dies now, and only the newest signs.
    const revoked = await client.post('/api/v1/settings/webhooks/{id}/rotate-secret', {
      path: { id: subscription!.id },
      body: { expire_previous_in_hours: 0 },
    });
    const newest = revoked.data!.secret;
    const after = await testDelivery(subscription!.id);
    expect(String(after.headers['x-service-signature']).split(',')).toHaveLength(1);
    const check = (secret: string) =>
      verifyWebhookSignature({ payload: after.body, headers: after.headers, secret });
    expect((await check(newest)).error).toBeUndefined();
    expect((await check(newSecret)).error?.params.reason).toBe('no_matching_signature');
  });
});
