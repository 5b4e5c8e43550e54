import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentsTestApp, WEBHOOK_SECRET } from './fixtures/payments/app';
import { lsSubscription, orderCreated } from './fixtures/payments/lemonsqueezy';

let t: Awaited<ReturnType<typeof createPaymentsTestApp>>;

beforeAll(async () => {
  t = await createPaymentsTestApp({ PAYMENT_PROVIDER: 'lemonsqueezy' });
});
afterAll(() => t?.close());
beforeEach(() => t.reset());

/** Lemon Squeezy's documented scheme, written out here: hex HMAC-SHA256 of the raw body. */
function signed(body: string, secret = WEBHOOK_SECRET) {
  return { 'x-signature': createHmac('sha256', secret).update(body).digest('hex') };
}

async function expectRejected(response: Response, reason: string) {
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ code: 'signature_invalide', params: { reason } });
  expect(await t.events()).toEqual([]);
  expect(await t.jobs()).toEqual([]);
}

describe('POST /api/lemonsqueezy/webhook', () => {
  it('order_created: keyed by the body hash, provision only, one job', async () => {
    const body = JSON.stringify(orderCreated());
    const key = createHash('sha256').update(body).digest('hex');
    expect(await (await t.post(body, signed(body))).json()).toEqual({
      received: true,
      duplicate: false,
      outcome: 'queued',
    });
    expect(await t.events()).toEqual([
      {
        provider: 'lemonsqueezy',
        event_key: key,
        event_type: 'order_created',
        outcome: 'queued',
        reason: null,
        change: {
          provision: {
            slug: 'initech',
            name: 'Initech',
            plan_code: 'team',
            admin: { email: 'peter@initech.test', name: 'Peter Gibbons' },
            reference: '1001',
          },
        },
      },
    ]);
    expect(await t.jobs()).toEqual([
      {
        task_identifier: 'landing_forward_payment_event',
        payload: { provider: 'lemonsqueezy', event_key: key },
        key: `payment:lemonsqueezy:${key}`,
        max_attempts: 25,
      },
    ]);
  });

  it('rejects a changed body, a wrong secret, a malformed or missing header (no timestamp to check)', async () => {
    const body = JSON.stringify(lsSubscription('subscription_updated', 'active'));
    await expectRejected(
      await t.post(body.replace('active', 'paused'), signed(body)),
      'no_matching_signature',
    );
    await expectRejected(
      await t.post(body, signed(body, 'another-secret')),
      'no_matching_signature',
    );
    await expectRejected(await t.post(body, { 'x-signature': 'not-hex' }), 'malformed_header');
    await expectRejected(await t.post(body, {}), 'missing_header');
  });

  it('the same body twice (also at once) is one event; another body is another', async () => {
    const body = JSON.stringify(
      lsSubscription('subscription_cancelled', 'cancelled', { ends_at: '2027-01-01T00:00:00Z' }),
    );
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.post(body, signed(body)).then((r) => r.json() as Promise<{ duplicate: boolean }>),
      ),
    );
    expect(answers.map((a) => a.duplicate).sort()).toEqual([false, true, true, true]);
    expect(await t.events()).toMatchObject([
      {
        event_type: 'subscription_cancelled',
        change: {
          subscription: { status: 'canceled', current_period_end: '2027-01-01T00:00:00.000Z' },
        },
      },
    ]);
    const expired = JSON.stringify(lsSubscription('subscription_expired', 'expired'));
    expect(await (await t.post(expired, signed(expired))).json()).toMatchObject({
      duplicate: false,
    });
    expect(await t.jobs()).toHaveLength(2);
  });

  it('an unknown event is acknowledged and ignored', async () => {
    const body = JSON.stringify(lsSubscription('license_key_created', 'active'));
    expect(await (await t.post(body, signed(body))).json()).toEqual({
      received: true,
      duplicate: false,
      outcome: 'ignored',
    });
    expect(await t.events()).toMatchObject([
      { outcome: 'ignored', reason: 'unsupported_event_type', change: null },
    ]);
    expect(await t.jobs()).toEqual([]);
  });

  it('the other providers have no path', async () => {
    for (const path of ['/api/stripe/webhook', '/api/paddle/webhook'])
      expect((await t.app.request(path, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
