import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentsTestApp, WEBHOOK_SECRET } from './fixtures/payments/app';
import {
  PADDLE_PLAN_PRICES,
  paddleSubscription,
  transactionCompleted,
} from './fixtures/payments/paddle';

let t: Awaited<ReturnType<typeof createPaymentsTestApp>>;

beforeAll(async () => {
  t = await createPaymentsTestApp({
    PAYMENT_PROVIDER: 'paddle',
    PAYMENT_PLAN_PRICES: JSON.stringify(PADDLE_PLAN_PRICES),
  });
});
afterAll(() => t?.close());
beforeEach(() => t.reset());

const nowSeconds = () => t.nowSeconds();

/** Paddle's documented scheme, written out here rather than borrowed from the implementation. */
function h1(body: string, ts: number, secret = WEBHOOK_SECRET) {
  return createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');
}
function signed(body: string, ts = nowSeconds(), secret = WEBHOOK_SECRET) {
  return { 'paddle-signature': `ts=${ts};h1=${h1(body, ts, secret)}` };
}

async function expectRejected(response: Response, reason: string) {
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ code: 'signature_invalide', params: { reason } });
  expect(await t.events()).toEqual([]);
  expect(await t.jobs()).toEqual([]);
}

describe('POST /api/paddle/webhook', () => {
  it('transaction.completed: stored with provision + subscription, one job', async () => {
    const body = JSON.stringify(transactionCompleted());
    const response = await t.post(body, signed(body));
    expect(await response.json()).toEqual({ received: true, duplicate: false, outcome: 'queued' });
    const [row] = await t.events();
    expect(row).toMatchObject({
      provider: 'paddle',
      event_key: 'evt_01paddletxn',
      event_type: 'transaction.completed',
      outcome: 'queued',
      change: {
        provider_customer_id: 'ctm_01globex',
        provider_subscription_id: 'sub_01globex',
        provision: { slug: 'globex', admin: { email: 'hank@globex.test' } },
        subscription: { status: 'active', plan_code: 'starter' },
      },
    });
    expect(await t.jobs()).toEqual([
      {
        task_identifier: 'landing_forward_payment_event',
        payload: { provider: 'paddle', event_key: 'evt_01paddletxn' },
        key: 'payment:paddle:evt_01paddletxn',
        max_attempts: 25,
      },
    ]);
  });

  it('rejects a changed body, a wrong secret, stale and future timestamps, bad headers', async () => {
    const body = JSON.stringify(paddleSubscription('subscription.updated', 'past_due'));
    await expectRejected(
      await t.post(body.replace('past_due', 'active'), signed(body)),
      'no_matching_signature',
    );
    await expectRejected(
      await t.post(body, signed(body, nowSeconds(), 'pdl_other_secret')),
      'no_matching_signature',
    );
    await expectRejected(
      await t.post(body, signed(body, nowSeconds() - 360)),
      'timestamp_out_of_tolerance',
    );
    await expectRejected(
      await t.post(body, signed(body, nowSeconds() + 360)),
      'timestamp_out_of_tolerance',
    );
    await expectRejected(
      await t.post(body, { 'paddle-signature': `h1=${h1(body, nowSeconds())}` }),
      'malformed_header',
    );
    await expectRejected(
      await t.post(body, { 'stripe-signature': signed(body)['paddle-signature'] }),
      'missing_header',
    );
  });

  it('a rotation header where only the second h1 matches is accepted', async () => {
    await t.bind('sub_01globex', 'ctm_01globex');
    const body = JSON.stringify(paddleSubscription('subscription.created', 'trialing'));
    const ts = nowSeconds();
    const header = `ts=${ts};h1=${h1(body, ts, 'pdl_previous_secret')};h1=${h1(body, ts)}`;
    const response = await t.post(body, { 'paddle-signature': header });
    expect(await response.json()).toEqual({ received: true, duplicate: false, outcome: 'queued' });
  });

  it('a redelivery and concurrent deliveries: one row, one job', async () => {
    await t.bind('sub_01globex', 'ctm_01globex');
    const body = JSON.stringify(paddleSubscription('subscription.canceled', 'canceled'));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.post(body, signed(body)).then((r) => r.json() as Promise<{ duplicate: boolean }>),
      ),
    );
    expect(answers.map((a) => a.duplicate).sort()).toEqual([false, true, true, true, true]);
    expect(await t.events()).toHaveLength(1);
    expect(await t.jobs()).toHaveLength(1);
  });

  it('an unknown event is acknowledged and ignored', async () => {
    const body = JSON.stringify({
      event_id: 'evt_01adj',
      event_type: 'adjustment.created',
      data: { id: 'adj_1' },
    });
    expect(await (await t.post(body, signed(body))).json()).toEqual({
      received: true,
      duplicate: false,
      outcome: 'ignored',
    });
    expect(await t.events()).toMatchObject([
      { event_key: 'evt_01adj', outcome: 'ignored', reason: 'unsupported_event_type' },
    ]);
    expect(await t.jobs()).toEqual([]);
  });

  it('the other providers have no path', async () => {
    for (const path of ['/api/stripe/webhook', '/api/lemonsqueezy/webhook'])
      expect((await t.app.request(path, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
