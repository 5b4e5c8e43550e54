import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentsTestApp, WEBHOOK_SECRET } from './fixtures/payments/app';
import { LS_PLAN_PRICES, lsSubscription, orderCreated } from './fixtures/payments/lemonsqueezy';

let t: Awaited<ReturnType<typeof createPaymentsTestApp>>;

beforeAll(async () => {
  t = await createPaymentsTestApp({
    PAYMENT_PROVIDER: 'lemonsqueezy',
    PAYMENT_PLAN_PRICES: JSON.stringify(LS_PLAN_PRICES),
  });
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
  it('subscription_created: keyed by the body hash, the purchase with its variant’s plan, one job; an order is ignored', async () => {
    const body = JSON.stringify(lsSubscription('subscription_created', 'active'));
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
        event_type: 'subscription_created',
        outcome: 'queued',
        reason: null,
        change: {
          provider_customer_id: '7',
          provider_subscription_id: '2002',
          provision: {
            slug: 'initech',
            name: 'Initech',
            admin: { email: 'peter@initech.test', name: 'Peter Gibbons' },
          },
          subscription: {
            plan_code: 'starter',
            status: 'active',
            current_period_end: '2026-12-23T10:00:00.000Z',
            event_at: '2026-11-23T10:05:00.000Z',
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
    const order = JSON.stringify(orderCreated());
    expect(await (await t.post(order, signed(order))).json()).toMatchObject({ outcome: 'ignored' });
    expect(await t.jobs()).toHaveLength(1);
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
    await t.bind('2002', '7');
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
