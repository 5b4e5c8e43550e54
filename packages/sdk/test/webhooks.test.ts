import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/index';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5Ebvl3GH3SY=';
const OLD_SECRET = 'whsec_9c3x0pJ8CqX8mHkAqF+2Vw4a8yQ0u9b2Yd3H0pLq1Zk=';
const body = JSON.stringify({
  id: '0193b6f0-0000-7000-8000-000000000001',
  delivery_id: '0193b6f0-0000-7000-8000-000000000002',
  type: 'webhook.test',
  created_at: '2026-11-23T10:00:00Z',
  tenant_id: '0193b6f0-0000-7000-8000-000000000003',
  data: {
    object: { subscription_id: 'x', url: 'https://example.com' },
    message: 'A test delivery: é ✓',
  },
});
const now = new Date('2026-11-23T10:00:00Z');
const timestamp = Math.floor(now.getTime() / 1000);

// The signer is written independently of the sdk, with node:crypto, from SPEC §7.
const sign = (secret: string, ts = timestamp, payload = body) =>
  `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.${payload}`).digest('hex')}`;
const headersFor = (signature: string, ts: string | number = timestamp) => ({
  'x-service-timestamp': String(ts),
  'x-service-signature': signature,
});
const verify = (
  headers: Record<string, string> | Headers,
  options: { secret?: string; payload?: string; now?: Date } = {},
) => verifyWebhookSignature({ payload: body, secret: SECRET, now, headers, ...options });

describe('verifyWebhookSignature', () => {
  it('returns the typed event of a well-signed delivery', async () => {
    const { event, error } = await verify(headersFor(sign(SECRET)));
    expect(error).toBeUndefined();
    expect(event?.type).toBe('webhook.test');
    if (event?.type === 'webhook.test') expect(event.data.message).toBe('A test delivery: é ✓');
  });

  it('accepts either signature while a secret rotates, from Headers or a Node header record', async () => {
    const both = `${sign(SECRET)},${sign(OLD_SECRET)}`;
    expect((await verify(headersFor(both))).error).toBeUndefined();
    expect((await verify(headersFor(both), { secret: OLD_SECRET })).error).toBeUndefined();
    expect((await verify(new Headers(headersFor(both)))).error).toBeUndefined();
    const upper = {
      'X-Service-Timestamp': String(timestamp),
      'X-Service-Signature': sign(SECRET).toUpperCase().replace('SHA256', 'sha256'),
    };
    expect((await verify(upper)).error).toBeUndefined();
  });

  it('refuses a wrong secret and a changed body', async () => {
    const wrong = await verify(headersFor(sign(SECRET)), { secret: OLD_SECRET });
    expect(wrong.error?.toJSON()).toMatchObject({
      code: 'signature_invalide',
      params: { reason: 'no_matching_signature' },
    });
    const changed = await verify(headersFor(sign(SECRET)), { payload: body.replace('é', 'e') });
    expect(changed.error?.params).toEqual({ reason: 'no_matching_signature' });
    const retimed = await verify(headersFor(sign(SECRET), timestamp + 1));
    expect(retimed.error?.params).toEqual({ reason: 'no_matching_signature' });
  });

  it('refuses a timestamp more than the tolerance away, either way', async () => {
    const stale = timestamp - 301;
    expect((await verify(headersFor(sign(SECRET, stale), stale))).error?.params).toEqual({
      reason: 'timestamp_outside_tolerance',
    });
    const ahead = timestamp + 301;
    expect((await verify(headersFor(sign(SECRET, ahead), ahead))).error?.params.reason).toBe(
      'timestamp_outside_tolerance',
    );
    const edge = timestamp - 300;
    expect((await verify(headersFor(sign(SECRET, edge), edge))).error).toBeUndefined();
    const tight = await verifyWebhookSignature({
      payload: body,
      secret: SECRET,
      now,
      toleranceSeconds: 10,
      headers: headersFor(sign(SECRET, timestamp - 11), timestamp - 11),
    });
    expect(tight.error?.params.reason).toBe('timestamp_outside_tolerance');
  });

  it('refuses malformed or missing headers', async () => {
    const reason = async (headers: Record<string, string>) =>
      (await verify(headers)).error?.params.reason;
    const good = sign(SECRET);
    expect(await reason({ 'x-service-signature': good })).toBe('missing_header');
    expect(await reason({ 'x-service-timestamp': String(timestamp) })).toBe('missing_header');
    expect(await reason(headersFor(good, '17e8'))).toBe('malformed_timestamp');
    expect(await reason(headersFor(good, `${timestamp}.5`))).toBe('malformed_timestamp');
    expect(await reason(headersFor(good.slice(7)))).toBe('malformed_signature');
    expect(await reason(headersFor(`sha256=${'z'.repeat(64)}`))).toBe('malformed_signature');
    expect(await reason(headersFor(`v1,${Buffer.from('x').toString('base64')}`))).toBe(
      'malformed_signature',
    );
    expect(await reason(headersFor(good.slice(0, -2)))).toBe('malformed_signature');
  });

  it('refuses a well-signed body that is not JSON', async () => {
    const payload = 'not json';
    const result = await verify(headersFor(sign(SECRET, timestamp, payload)), { payload });
    expect(result.error?.params).toEqual({ reason: 'invalid_payload' });
  });
});
