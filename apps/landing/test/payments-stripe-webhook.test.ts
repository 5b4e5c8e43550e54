import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentsTestApp, WEBHOOK_SECRET } from './fixtures/payments/app';
import {
  CREATED_ISO,
  checkoutSessionCompleted,
  invoicePaid,
  PERIOD_END_ISO,
  STRIPE_PLAN_PRICES,
  subscriptionEvent,
} from './fixtures/payments/stripe';

const stripe = new Stripe('sk_test_x');
let t: Awaited<ReturnType<typeof createPaymentsTestApp>>;

beforeAll(async () => {
  t = await createPaymentsTestApp({
    PAYMENT_PROVIDER: 'stripe',
    PAYMENT_PLAN_PRICES: JSON.stringify(STRIPE_PLAN_PRICES),
  });
});
afterAll(() => t?.close());
beforeEach(() => t.reset());

const nowSeconds = () => t.nowSeconds();

function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return {
    'stripe-signature': stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: options.timestamp ?? nowSeconds(),
    }),
  };
}

async function expectRejected(response: Response, reason: string) {
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    code: 'signature_invalide',
    params: { reason },
    message: 'The webhook signature could not be verified.',
  });
  expect(await t.events()).toEqual([]);
  expect(await t.jobs()).toEqual([]);
}

describe('POST /api/stripe/webhook', () => {
  it('a checkout waits for its plan; its subscription’s event makes the one provisioning, one job', async () => {
    const body = JSON.stringify(checkoutSessionCompleted());
    const response = await t.post(body, signed(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: false, outcome: 'waiting' });
    expect(await t.jobs()).toEqual([]);
    const created = JSON.stringify(subscriptionEvent('customer.subscription.created', 'active'));
    expect(await (await t.post(created, signed(created))).json()).toMatchObject({
      outcome: 'queued',
    });
    const rows = await t.events();
    expect(rows.map((r) => [r.event_key, r.outcome, r.reason])).toEqual([
      ['evt_1checkout', 'waiting', 'awaiting_plan'],
      ['evt_1sub_created_active', 'queued', null],
    ]);
    expect(rows[1]?.change).toEqual({
      provider_customer_id: 'cus_Q1w2e3',
      provider_subscription_id: 'sub_1acme',
      provision: {
        slug: 'acme',
        name: 'Acme SARL',
        admin: { email: 'jeanne@acme.test', name: 'Jeanne Martin' },
      },
      subscription: {
        plan_code: 'business',
        status: 'active',
        current_period_end: PERIOD_END_ISO,
        event_at: CREATED_ISO,
      },
    });
    expect(await t.jobs()).toEqual([
      {
        task_identifier: 'landing_forward_payment_event',
        payload: { provider: 'stripe', event_key: 'evt_1sub_created_active' },
        key: 'payment:stripe:evt_1sub_created_active',
        max_attempts: 25,
      },
    ]);
  });

  it('invoice.paid and customer.subscription.updated/deleted of a bound subscription are queued with their status', async () => {
    await t.bind('sub_1acme', 'cus_Q1w2e3');
    const events = [
      invoicePaid(),
      subscriptionEvent('customer.subscription.updated', 'past_due'),
      subscriptionEvent('customer.subscription.deleted', 'canceled'),
    ];
    for (const event of events) {
      const body = JSON.stringify(event);
      const response = await t.post(body, signed(body));
      expect(await response.json()).toEqual({
        received: true,
        duplicate: false,
        outcome: 'queued',
      });
    }
    const rows = await t.events();
    expect(
      rows.map((r) => [
        r.event_type,
        (r.change as { subscription: { status: string } }).subscription.status,
      ]),
    ).toEqual([
      ['invoice.paid', 'active'],
      ['customer.subscription.deleted', 'canceled'],
      ['customer.subscription.updated', 'past_due'],
    ]);
    expect(rows.find((r) => r.event_type === 'invoice.paid')?.change).toMatchObject({
      subscription: { current_period_end: PERIOD_END_ISO },
    });
    expect((await t.jobs()).map((j) => j.key).sort()).toEqual(
      events.map((e) => `payment:stripe:${e.id}`).sort(),
    );
  });

  it('a changed body, a wrong secret, a stale or future timestamp, a bad header: 400 and nothing stored', async () => {
    const body = JSON.stringify(checkoutSessionCompleted());
    const header = signed(body);
    await expectRejected(
      await t.post(body.replace('Acme SARL', 'Evil SARL'), header),
      'no_matching_signature',
    );
    await expectRejected(
      await t.post(body, signed(body, { secret: 'whsec_not_ours_0123' })),
      'no_matching_signature',
    );
    await expectRejected(
      await t.post(body, signed(body, { timestamp: nowSeconds() - 360 })),
      'timestamp_out_of_tolerance',
    );
    await expectRejected(
      await t.post(body, signed(body, { timestamp: nowSeconds() + 360 })),
      'timestamp_out_of_tolerance',
    );
    await expectRejected(
      await t.post(body, { 'stripe-signature': 'v1=deadbeef' }),
      'malformed_header',
    );
    await expectRejected(
      await t.post(body, { 'stripe-signature': `t=${nowSeconds()},v1=zz` }),
      'malformed_header',
    );
    await expectRejected(await t.post(body, {}), 'missing_header');
  });

  it('a delivery signed almost 5 minutes ago is accepted, one signed 5 min 1 s ago is not', async () => {
    const body = JSON.stringify(invoicePaid());
    const header = signed(body);
    t.clock.offsetMs = 298_000;
    expect((await t.post(body, header)).status).toBe(200);
    await t.reset();
    t.clock.offsetMs = 301_000;
    await expectRejected(await t.post(body, header), 'timestamp_out_of_tolerance');
  });

  it('a rotation header where only the second v1 matches is accepted', async () => {
    await t.bind('sub_1acme', 'cus_Q1w2e3');
    const body = JSON.stringify(invoicePaid());
    const good = signed(body)['stripe-signature'];
    const old = stripe.webhooks
      .generateTestHeaderString({
        payload: body,
        secret: 'whsec_previous_secret',
        timestamp: nowSeconds(),
      })
      .split(',')[1];
    const [ts, v1] = good.split(',');
    const response = await t.post(body, { 'stripe-signature': `${ts},${old},${v1}` });
    expect(response.status).toBe(200);
    expect(await t.jobs()).toHaveLength(1);
  });

  it('the same event twice, then concurrently: one row, one job, duplicate: true', async () => {
    const body = JSON.stringify(checkoutSessionCompleted());
    const first = await t.post(body, signed(body));
    expect(await first.json()).toEqual({ received: true, duplicate: false, outcome: 'waiting' });
    // A redelivery is signed anew (another timestamp) but carries the same event id.
    const again = JSON.stringify(checkoutSessionCompleted(), null, 2);
    const second = await t.post(again, signed(again, { timestamp: nowSeconds() - 60 }));
    expect(await second.json()).toEqual({ received: true, duplicate: true, outcome: 'waiting' });
    expect(await t.events()).toHaveLength(1);
    expect(await t.jobs()).toHaveLength(0);

    await t.bind('sub_1acme', 'cus_Q1w2e3');
    const other = JSON.stringify(invoicePaid({}, 'evt_concurrent'));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.post(other, signed(other)).then((r) => r.json() as Promise<{ duplicate: boolean }>),
      ),
    );
    expect(answers.filter((a) => a.duplicate === false)).toHaveLength(1);
    expect(answers.filter((a) => a.duplicate === true)).toHaveLength(7);
    expect((await t.events()).filter((e) => e.event_key === 'evt_concurrent')).toHaveLength(1);
    expect((await t.jobs()).filter((j) => j.key === 'payment:stripe:evt_concurrent')).toHaveLength(
      1,
    );
  });

  it('an unknown event or one without our metadata: 200, ignored with a reason, no job', async () => {
    const unknown = JSON.stringify({
      id: 'evt_refund',
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    });
    const response = await t.post(unknown, signed(unknown));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: false, outcome: 'ignored' });
    const bare = JSON.stringify(checkoutSessionCompleted({ metadata: {} }));
    expect(await (await t.post(bare, signed(bare))).json()).toMatchObject({ outcome: 'ignored' });
    expect((await t.events()).map((e) => [e.event_key, e.outcome, e.reason, e.change])).toEqual(
      [
        [
          'evt_1checkout',
          'ignored',
          expect.stringMatching(/^incomplete_event: provision\.slug/),
          null,
        ],
        ['evt_refund', 'ignored', 'unsupported_event_type', null],
      ].sort(),
    );
    expect(await t.jobs()).toEqual([]);
  });

  it('logs the type, key and outcome, never the buyer or the secret', async () => {
    t.logs.length = 0;
    const body = JSON.stringify(checkoutSessionCompleted());
    await t.post(body, signed(body));
    await t.post(body, signed(body, { secret: 'whsec_not_ours_0123' }));
    expect(t.logs.map((l) => [l.level, l.message, l.fields.reason ?? l.fields.outcome])).toEqual([
      ['info', 'payment event received', 'awaiting_plan'],
      ['warn', 'payment webhook rejected', 'no_matching_signature'],
    ]);
    expect(t.logs[0]?.fields).toMatchObject({
      event_type: 'checkout.session.completed',
      event_key: 'evt_1checkout',
    });
    const text = JSON.stringify(t.logs);
    for (const secret of ['jeanne@acme.test', 'Jeanne Martin', 'Acme SARL', WEBHOOK_SECRET, 'v1='])
      expect(text).not.toContain(secret);
  });

  it('invalid JSON under a valid signature is a requete_invalide, and nothing is stored', async () => {
    const body = '{"id": "evt_broken",';
    const response = await t.post(body, signed(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'requete_invalide' });
    expect(await t.events()).toEqual([]);
  });

  it('a body over the limit is refused before anything is read into the database', async () => {
    const body = JSON.stringify(invoicePaid({ description: 'x'.repeat(300 * 1024) }));
    const response = await t.post(body, signed(body));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'charge_trop_volumineuse' });
    expect(await t.events()).toEqual([]);
  });

  it('only the configured provider has a path', async () => {
    for (const path of ['/api/paddle/webhook', '/api/lemonsqueezy/webhook']) {
      const response = await t.app.request(path, { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'introuvable' });
    }
  });
});

describe('without PAYMENT_WEBHOOK_SECRET', () => {
  it('every delivery is refused as not_configured', async () => {
    const unconfigured = await createPaymentsTestApp({
      PAYMENT_PROVIDER: 'stripe',
      PAYMENT_WEBHOOK_SECRET: '',
    });
    const body = JSON.stringify(invoicePaid());
    const response = await unconfigured.post(body, signed(body)).finally(unconfigured.close);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'signature_invalide',
      params: { reason: 'not_configured' },
    });
  });
});
