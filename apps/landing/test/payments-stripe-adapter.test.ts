import { createHash } from 'node:crypto';
import { ApiError } from '@erp/contract';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { planResolver } from '../src/payments/plan-prices';
import { stripeAdapter } from '../src/payments/stripe';
import {
  CHECKOUT_METADATA,
  CLIENT_REFERENCE,
  CREATED_ISO,
  checkoutSessionCompleted,
  invoicePaid,
  PERIOD_END_ISO,
  STRIPE_PLAN_PRICES,
  subscriptionEvent,
} from './fixtures/payments/stripe';

const SECRET = 'whsec_test_0123456789abcdef';
const stripe = new Stripe('sk_test_x');
const NOW = new Date('2026-11-23T10:00:00Z');
const nowSeconds = NOW.getTime() / 1000;

function reasonOf(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('signature_invalide');
    return (error as ApiError).params.reason;
  }
  throw new Error('expected a signature_invalide');
}

function headers(signature?: string): Headers {
  return new Headers(signature === undefined ? {} : { 'Stripe-Signature': signature });
}

describe('stripe verify', () => {
  const payload = JSON.stringify(checkoutSessionCompleted());
  const sign = (timestamp = nowSeconds, secret = SECRET) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

  it('accepts what the official library signs, up to 300 s either way', () => {
    expect(() => stripeAdapter.verify(payload, headers(sign()), SECRET, NOW)).not.toThrow();
    expect(() =>
      stripeAdapter.verify(payload, headers(sign(nowSeconds - 300)), SECRET, NOW),
    ).not.toThrow();
    expect(() =>
      stripeAdapter.verify(payload, headers(sign(nowSeconds + 300)), SECRET, NOW),
    ).not.toThrow();
  });

  it('names each failure without revealing more', () => {
    const valid = sign();
    expect(reasonOf(() => stripeAdapter.verify(payload, headers(valid), undefined, NOW))).toBe(
      'not_configured',
    );
    expect(reasonOf(() => stripeAdapter.verify(payload, headers(), SECRET, NOW))).toBe(
      'missing_header',
    );
    expect(reasonOf(() => stripeAdapter.verify(payload, headers('garbage'), SECRET, NOW))).toBe(
      'malformed_header',
    );
    expect(
      reasonOf(() => stripeAdapter.verify(payload, headers(`t=${nowSeconds}`), SECRET, NOW)),
    ).toBe('malformed_header');
    expect(
      reasonOf(() =>
        stripeAdapter.verify(payload, headers(`t=abc,v1=${'a'.repeat(64)}`), SECRET, NOW),
      ),
    ).toBe('malformed_header');
    expect(
      reasonOf(() => stripeAdapter.verify(payload, headers(`t=${nowSeconds},v1=xyz`), SECRET, NOW)),
    ).toBe('malformed_header');
    expect(reasonOf(() => stripeAdapter.verify(`${payload} `, headers(valid), SECRET, NOW))).toBe(
      'no_matching_signature',
    );
    expect(
      reasonOf(() =>
        stripeAdapter.verify(payload, headers(sign(nowSeconds, 'whsec_other_secret')), SECRET, NOW),
      ),
    ).toBe('no_matching_signature');
    expect(
      reasonOf(() => stripeAdapter.verify(payload, headers(sign(nowSeconds - 301)), SECRET, NOW)),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      reasonOf(() => stripeAdapter.verify(payload, headers(sign(nowSeconds + 301)), SECRET, NOW)),
    ).toBe('timestamp_out_of_tolerance');
  });

  it('accepts any of several v1 signatures (secret rotation) and ignores v0', () => {
    const good = sign().split('v1=')[1];
    const header = `t=${nowSeconds},v1=${'0'.repeat(64)},v0=${'1'.repeat(64)},v1=${good}`;
    expect(() => stripeAdapter.verify(payload, headers(header), SECRET, NOW)).not.toThrow();
  });
});

const plans = planResolver(STRIPE_PLAN_PRICES, { identity: false });
const parse = (event: unknown) => stripeAdapter.parse(event, '', plans);
const IDS = { provider_customer_id: 'cus_Q1w2e3', provider_subscription_id: 'sub_1acme' };

describe('stripe parse', () => {
  it('checkout.session.completed → the purchase only: no plan, no tenant; the reference as its SHA-256', () => {
    expect(parse(checkoutSessionCompleted())).toEqual({
      event_key: 'evt_1checkout',
      event_type: 'checkout.session.completed',
      facts: {
        ...IDS,
        provision: {
          slug: 'acme',
          name: 'Acme SARL',
          admin: { email: 'jeanne@acme.test', name: 'Jeanne Martin' },
          reference_sha256: createHash('sha256').update(CLIENT_REFERENCE).digest('hex'),
        },
      },
    });
  });

  it('a checkout without a name leaves it to the e-mail; expanded ids; no client_reference_id, no reference', () => {
    const event = checkoutSessionCompleted({
      customer_details: { email: 'jeanne@acme.test', name: null },
      subscription: { id: 'sub_expanded', object: 'subscription' },
      customer: { id: 'cus_expanded', object: 'customer' },
      client_reference_id: null,
    });
    const facts = parse(event).facts;
    expect(facts?.provision?.admin).toEqual({ email: 'jeanne@acme.test' });
    expect(facts?.provision?.reference_sha256).toBeUndefined();
    expect(facts?.provider_subscription_id).toBe('sub_expanded');
    expect(facts?.provider_customer_id).toBe('cus_expanded');
  });

  it('a one-off payment checkout or missing metadata is ignored with a reason', () => {
    expect(parse(checkoutSessionCompleted({ mode: 'payment', subscription: null }))).toEqual({
      event_key: 'evt_1checkout',
      event_type: 'checkout.session.completed',
      ignored_reason: 'not_a_subscription',
    });
    const noMeta = parse(checkoutSessionCompleted({ metadata: {} }));
    expect(noMeta.facts).toBeUndefined();
    expect(noMeta.ignored_reason).toBe('incomplete_event: provision.slug, provision.name');
    const badSlug = parse(
      checkoutSessionCompleted({ metadata: { ...CHECKOUT_METADATA, tenant_slug: 'Not A Slug' } }),
    );
    expect(badSlug.ignored_reason).toBe('incomplete_event: provision.slug');
  });

  it('invoice.paid → active on the line price’s plan, with its period end (basil and older shapes)', () => {
    const expected = {
      ...IDS,
      subscription: {
        plan_code: 'business',
        status: 'active',
        current_period_end: PERIOD_END_ISO,
        event_at: CREATED_ISO,
      },
    };
    expect(parse(invoicePaid()).facts).toEqual(expected);
    const legacy = invoicePaid({ parent: null, subscription: 'sub_1acme' });
    const lines = legacy.data.object.lines as { data: Record<string, unknown>[] };
    lines.data[0] = {
      ...lines.data[0],
      pricing: null,
      price: { id: 'price_other', lookup_key: 'starter_monthly' },
    };
    expect(parse(legacy).facts?.subscription?.plan_code).toBe('starter');
    expect(parse(invoicePaid({ parent: null })).ignored_reason).toBe('not_a_subscription');
  });

  it.each([
    ['active', 'active'],
    ['trialing', 'trialing'],
    ['past_due', 'past_due'],
    ['unpaid', 'past_due'],
    ['incomplete', 'past_due'],
    ['canceled', 'canceled'],
    ['incomplete_expired', 'expired'],
    ['paused', 'canceled'],
  ])('customer.subscription.updated %s → %s', (stripeStatus, status) => {
    expect(parse(subscriptionEvent('customer.subscription.updated', stripeStatus)).facts).toEqual({
      ...IDS,
      subscription: {
        plan_code: 'business',
        status,
        current_period_end: PERIOD_END_ISO,
        event_at: CREATED_ISO,
      },
    });
  });

  it('the plan is the mapped price’s, never metadata’s; an unmapped price is ignored with a reason', () => {
    const lying = subscriptionEvent('customer.subscription.updated', 'active', {
      metadata: { tenant_slug: 'victim', plan_code: 'enterprise' },
    });
    const facts = parse(lying).facts;
    expect(facts?.subscription?.plan_code).toBe('business');
    expect(JSON.stringify(facts)).not.toContain('victim');
    const byLookupKey = subscriptionEvent('customer.subscription.created', 'active', {
      items: { data: [{ id: 'si_1', price: { id: 'price_new', lookup_key: 'starter_monthly' } }] },
    });
    expect(parse(byLookupKey).facts?.subscription?.plan_code).toBe('starter');
    const unmapped = subscriptionEvent('customer.subscription.updated', 'active', {
      items: { data: [{ id: 'si_1', price: { id: 'price_free', lookup_key: 'enterprise' } }] },
    });
    expect(parse(unmapped)).toEqual({
      event_key: unmapped.id,
      event_type: 'customer.subscription.updated',
      ignored_reason: 'unmapped_price',
    });
    const paidInvoice = invoicePaid();
    (paidInvoice.data.object.lines as { data: Record<string, unknown>[] }).data[0]!.pricing = {
      price_details: { price: 'price_free' },
    };
    expect(parse(paidInvoice).ignored_reason).toBe('unmapped_price');
  });

  it('in development a lookup key naming a plan code is that plan (SPEC §8); elsewhere it is unmapped', () => {
    const event = subscriptionEvent('customer.subscription.updated', 'active', {
      items: { data: [{ id: 'si_1', price: { id: 'price_dev', lookup_key: 'enterprise' } }] },
    });
    const dev = planResolver({}, { identity: true });
    expect(stripeAdapter.parse(event, '', dev).facts?.subscription?.plan_code).toBe('enterprise');
    expect(
      stripeAdapter.parse(event, '', planResolver({}, { identity: false })).ignored_reason,
    ).toBe('unmapped_price');
  });

  it('deleted is canceled whatever the status; legacy period end', () => {
    const deleted = parse(subscriptionEvent('customer.subscription.deleted', 'active'));
    expect(deleted.facts?.subscription?.status).toBe('canceled');
    const legacy = subscriptionEvent('customer.subscription.created', 'trialing', {
      current_period_end: 1_797_592_000,
      items: { data: [{ id: 'si_1', price: { id: 'price_1biz' } }] },
    });
    expect(parse(legacy).facts?.subscription).toMatchObject({
      plan_code: 'business',
      status: 'trialing',
      current_period_end: PERIOD_END_ISO,
    });
  });

  it('event_at is the event’s created time (Unix seconds); left out when unreadable', () => {
    const later = {
      ...subscriptionEvent('customer.subscription.updated', 'active'),
      created: 1_795_003_600,
    };
    expect(parse(later).facts?.subscription?.event_at).toBe('2026-11-18T12:06:40.000Z');
    const noTime = {
      ...subscriptionEvent('customer.subscription.updated', 'active'),
      created: null,
    };
    const facts = parse(noTime).facts;
    expect(facts?.subscription?.status).toBe('active');
    expect(facts?.subscription?.event_at).toBeUndefined();
  });

  it('unknown types and statuses are ignored; a non-event is a requete_invalide', () => {
    const unknown = { id: 'evt_x', type: 'charge.refunded', data: { object: { id: 'ch_1' } } };
    expect(parse(unknown)).toEqual({
      event_key: 'evt_x',
      event_type: 'charge.refunded',
      ignored_reason: 'unsupported_event_type',
    });
    expect(parse(subscriptionEvent('customer.subscription.updated', 'weird')).ignored_reason).toBe(
      'unsupported_status',
    );
    expect(() => parse({ hello: 'world' })).toThrow(
      expect.objectContaining({ code: 'requete_invalide' }),
    );
  });
});
