/**
 * What a provider event may decide (SPEC §8), for each provider, against the real database:
 * the plan only from the mapped price, a change only for the subscription a first purchase
 * bound, a purchase only with a landing-issued reference, in whatever order events arrive.
 * (The worker's side, provisioning and binding, is in apps/worker and e2e.)
 */
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../src/env';
import { createPaymentsTestApp, WEBHOOK_SECRET } from './fixtures/payments/app';
import {
  LS_PLAN_PRICES,
  lemonSqueezySignature,
  lsSubscription,
} from './fixtures/payments/lemonsqueezy';
import {
  PADDLE_PLAN_PRICES,
  paddleSignature,
  paddleSubscription,
  transactionCompleted,
} from './fixtures/payments/paddle';
import {
  checkoutSessionCompleted,
  STRIPE_PLAN_PRICES,
  subscriptionEvent,
} from './fixtures/payments/stripe';

const stripe = new Stripe('sk_test_x');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Ids {
  customer: string;
  subscription: string;
}

/** Each provider's events, shaped as it sends them, with the metadata a buyer controls lying. */
interface ProviderCase {
  provider: PaymentProvider;
  prices: Record<string, string>;
  /** A price the mapping has (→ 'business') and one it lacks. */
  mapped: string;
  unmapped: string;
  /** The customer and subscription the fixtures' purchase is for; ones nobody bought. */
  bought: Ids;
  stranger: Ids;
  /** The first purchase, carrying `reference` back as the provider does. */
  purchase(reference: string): object;
  /** Whether the purchase event also says the plan (Paddle, Lemon Squeezy) or not (Stripe). */
  purchaseHasPlan: boolean;
  /** A subscription change whose metadata names tenant `victim` and plan `enterprise`. */
  change(ids: Ids, price: string, n: number): object;
  headers(body: string, nowSeconds: number): Record<string, string>;
}

const LIES = { tenant_slug: 'victim', tenant: 'victim', plan_code: 'enterprise' };

const cases: ProviderCase[] = [
  {
    provider: 'stripe',
    prices: STRIPE_PLAN_PRICES,
    mapped: 'price_1biz',
    unmapped: 'price_free',
    bought: { customer: 'cus_Q1w2e3', subscription: 'sub_1acme' },
    stranger: { customer: 'cus_stranger', subscription: 'sub_stranger' },
    purchaseHasPlan: false,
    purchase: (reference) => checkoutSessionCompleted({ client_reference_id: reference }),
    change: (ids, price, n) =>
      subscriptionEvent(
        'customer.subscription.updated',
        'active',
        {
          id: ids.subscription,
          customer: ids.customer,
          metadata: LIES,
          items: { data: [{ id: 'si_1', price: { id: price, lookup_key: 'enterprise' } }] },
        },
        `evt_change_${n}`,
      ),
    headers: (payload, timestamp) => ({
      'stripe-signature': stripe.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        timestamp,
      }),
    }),
  },
  {
    provider: 'paddle',
    prices: { ...PADDLE_PLAN_PRICES, pri_01biz: 'business' },
    mapped: 'pri_01biz',
    unmapped: 'pri_free',
    bought: { customer: 'ctm_01globex', subscription: 'sub_01globex' },
    stranger: { customer: 'ctm_01stranger', subscription: 'sub_01stranger' },
    purchaseHasPlan: true,
    purchase: (reference) =>
      transactionCompleted({
        custom_data: {
          tenant_slug: 'globex',
          company_name: 'Globex SAS',
          admin_email: 'hank@globex.test',
          reference,
        },
      }),
    change: (ids, price, n) =>
      paddleSubscription(
        'subscription.updated',
        'active',
        {
          id: ids.subscription,
          customer_id: ids.customer,
          custom_data: LIES,
          items: [{ price: { id: price, custom_data: { plan_code: 'enterprise' } } }],
        },
        `evt_change_${n}`,
      ),
    headers: (body, ts) => ({ 'paddle-signature': paddleSignature(body, WEBHOOK_SECRET, ts) }),
  },
  {
    provider: 'lemonsqueezy',
    prices: LS_PLAN_PRICES,
    mapped: '302',
    unmapped: '999',
    bought: { customer: '7', subscription: '2002' },
    stranger: { customer: '99', subscription: '9999' },
    purchaseHasPlan: true,
    purchase: (reference) => {
      const event = lsSubscription('subscription_created', 'active');
      return {
        ...event,
        meta: { ...event.meta, custom_data: { ...event.meta.custom_data, reference } },
      };
    },
    change: (ids, price, n) => {
      const event = lsSubscription('subscription_updated', 'active', {
        customer_id: Number(ids.customer),
        variant_id: Number(price),
        // Lemon Squeezy has no event id: a distinct body is a distinct event.
        updated_at: `2026-11-23T11:0${n}:00.000000Z`,
      });
      return {
        ...event,
        meta: { ...event.meta, custom_data: LIES },
        data: { ...event.data, id: ids.subscription },
      };
    },
    headers: (body) => ({ 'x-signature': lemonSqueezySignature(body, WEBHOOK_SECRET) }),
  },
];

describe.each(cases)('$provider: what an event may decide', (pc) => {
  let t: Awaited<ReturnType<typeof createPaymentsTestApp>>;
  beforeAll(async () => {
    t = await createPaymentsTestApp({
      PAYMENT_PROVIDER: pc.provider,
      PAYMENT_PLAN_PRICES: JSON.stringify(pc.prices),
    });
  });
  afterAll(() => t?.close());
  beforeEach(() => t.reset());

  async function send(event: object) {
    const body = JSON.stringify(event);
    const response = await t.post(body, pc.headers(body, t.nowSeconds()));
    expect(response.status).toBe(200);
    return (await response.json()) as { outcome: string };
  }

  it('a change from a customer and subscription no purchase bound changes nothing: waiting, no job', async () => {
    const stranger = pc.stranger;
    expect(await send(pc.change(stranger, pc.mapped, 1))).toMatchObject({ outcome: 'waiting' });
    // Even when another subscription is bound: the metadata naming its tenant does not matter.
    await t.bind(pc.bought.subscription, pc.bought.customer, 'victim');
    expect(await send(pc.change(stranger, pc.mapped, 2))).toMatchObject({ outcome: 'waiting' });
    expect((await t.events()).map((e) => [e.outcome, e.reason])).toEqual([
      ['waiting', 'awaiting_purchase'],
      ['waiting', 'awaiting_purchase'],
    ]);
    expect(await t.jobs()).toEqual([]);
  });

  it('a bound subscription’s change is queued with the mapped price’s plan, no tenant, whatever the metadata; another customer’s is ignored', async () => {
    await t.bind(pc.bought.subscription, pc.bought.customer);
    expect(await send(pc.change(pc.bought, pc.mapped, 1))).toMatchObject({ outcome: 'queued' });
    const [queued] = await t.events();
    expect(queued?.change).toEqual({
      provider_customer_id: pc.bought.customer,
      provider_subscription_id: pc.bought.subscription,
      subscription: expect.objectContaining({ plan_code: 'business', status: 'active' }),
    });
    expect(JSON.stringify(queued?.change)).not.toMatch(/victim|enterprise/);
    expect(await t.jobs()).toHaveLength(1);

    const impostor = { customer: pc.stranger.customer, subscription: pc.bought.subscription };
    expect(await send(pc.change(impostor, pc.mapped, 2))).toMatchObject({ outcome: 'ignored' });
    expect((await t.events()).map((e) => e.reason)).toContain('customer_mismatch');
    expect(await t.jobs()).toHaveLength(1);
  });

  it('an unmapped price is stored ignored with the reason, and acknowledged', async () => {
    await t.bind(pc.bought.subscription, pc.bought.customer);
    expect(await send(pc.change(pc.bought, pc.unmapped, 1))).toMatchObject({ outcome: 'ignored' });
    expect((await t.events()).map((e) => [e.outcome, e.reason])).toEqual([
      ['ignored', 'unmapped_price'],
    ]);
    expect(await t.jobs()).toEqual([]);
  });

  it('a change before its purchase waits, then the purchase makes one provisioning with the newest state and the landing-issued reference', async () => {
    const { body: started } = await t.start({ plan_code: 'business' });
    expect(await send(pc.change(pc.bought, pc.mapped, 1))).toMatchObject({ outcome: 'waiting' });
    expect(await send(pc.purchase(started.reference))).toMatchObject({ outcome: 'queued' });
    const rows = await t.events();
    const queued = rows.filter((r) => r.outcome === 'queued');
    expect(queued).toHaveLength(1);
    const change = queued[0]?.change as {
      provision: { reference_sha256?: string; slug: string };
      subscription: { plan_code: string };
    };
    expect(change.provision.reference_sha256).toBe(sha256(started.reference));
    expect(change.provision.slug).not.toBe('victim');
    // The change the provider dated last (Stripe's checkout says no plan at all; Paddle's and
    // Lemon Squeezy's purchase say `starter`, but earlier than the waiting change).
    expect(change.subscription.plan_code).toBe('business');
    expect(await t.jobs()).toHaveLength(1);
    // The reference itself is stored nowhere.
    const stored = JSON.stringify(await t.events());
    expect(stored).not.toContain(started.reference);
  });

  it('a purchase whose reference landing never issued (a provider id, a counter) carries none', async () => {
    const answer = await send(pc.purchase('1001'));
    const [row] = await t.events();
    const provision = (row?.change as { provision?: Record<string, unknown> } | null)?.provision;
    expect(provision).toBeDefined();
    expect(provision).not.toHaveProperty('reference_sha256');
    expect(answer.outcome).toBe(pc.purchaseHasPlan ? 'queued' : 'waiting');
  });
});
