import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createSecretBox, generateSigningSecret } from './secrets';
import { deliveryHeaders } from './signature';

describe('deliveryHeaders', () => {
  const body = '{"id":"e","data":{"note":"é ✓"}}';
  const delivery = {
    deliveryId: '0193b6f0-0000-7000-8000-000000000001',
    eventType: 'sales_order.created',
    timestamp: Math.floor(Date.now() / 1000),
    body,
    webhookVersion: '2026-11-23',
  };

  it('signs "<timestamp>.<body>" with the secret string, as SPEC §7 says', () => {
    const secret = generateSigningSecret();
    const headers = deliveryHeaders({ ...delivery, secrets: [secret] });
    const hex = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`${delivery.timestamp}.${body}`)
      .digest('hex');
    expect(headers['x-service-signature']).toBe(`sha256=${hex}`);
    expect(headers['x-service-timestamp']).toBe(String(delivery.timestamp));
    expect(headers['x-service-delivery-id']).toBe(delivery.deliveryId);
  });

  it('is accepted by the Standard Webhooks reference library, with either secret while rotating', () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const headers = deliveryHeaders({ ...delivery, secrets: [current, previous] });
    expect(headers['x-service-signature']?.split(',')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
  });
});

describe('secret box', () => {
  it('round-trips, is bound to its subscription and to the key', () => {
    const box = createSecretBox('k'.repeat(40));
    const secret = generateSigningSecret();
    const sealed = box.seal(secret, 'sub-a');
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(box.open(sealed, 'sub-a')).toBe(secret);
    expect(() => box.open(sealed, 'sub-b')).toThrow();
    expect(() => createSecretBox('j'.repeat(40)).open(sealed, 'sub-a')).toThrow();
    expect(() => createSecretBox('short')).toThrow();
  });

  it('makes secrets of the Standard Webhooks form with 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});
