import { ApiError } from '@erp/contract';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { stripeAdapter } from '../src/payments/stripe';
import {
  CHECKOUT_METADATA,
  CREATED_ISO,
  checkoutSessionCompleted,
  invoicePaid,
  PERIOD_END_ISO,
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

describe('stripe parse', () => {
  it('checkout.session.completed (subscription mode) → provision + active subscription', () => {
    expect(stripeAdapter.parse(checkoutSessionCompleted(), '')).toEqual({
      event_key: 'evt_1checkout',
      event_type: 'checkout.session.completed',
      change: {
        provision: {
          slug: 'acme',
          name: 'Acme SARL',
          plan_code: 'pro',
          admin: { email: 'jeanne@acme.test', name: 'Jeanne Martin' },
          reference: 'cs_test_a1b2c3',
        },
        subscription: {
          tenant: 'acme',
          plan_code: 'pro',
          status: 'active',
          provider: 'stripe',
          provider_subscription_id: 'sub_1acme',
          event_at: CREATED_ISO,
        },
      },
    });
  });

  it('a checkout without a name takes the e-mail as the admin name; an expanded subscription its id', () => {
    const event = checkoutSessionCompleted({
      customer_details: { email: 'jeanne@acme.test', name: null },
      subscription: { id: 'sub_expanded', object: 'subscription' },
    });
    const change = stripeAdapter.parse(event, '').change;
    expect(change?.provision?.admin).toEqual({
      email: 'jeanne@acme.test',
      name: 'jeanne@acme.test',
    });
    expect(change?.subscription?.provider_subscription_id).toBe('sub_expanded');
  });

  it('a one-off payment checkout or missing metadata is ignored with a reason', () => {
    expect(
      stripeAdapter.parse(checkoutSessionCompleted({ mode: 'payment', subscription: null }), ''),
    ).toEqual({
      event_key: 'evt_1checkout',
      event_type: 'checkout.session.completed',
      ignored_reason: 'not_a_subscription',
    });
    const noMeta = stripeAdapter.parse(checkoutSessionCompleted({ metadata: {} }), '');
    expect(noMeta.change).toBeUndefined();
    expect(noMeta.ignored_reason).toBe(
      'incomplete_event: provision.slug, provision.name, provision.plan_code, subscription.tenant, subscription.plan_code',
    );
    const badSlug = stripeAdapter.parse(
      checkoutSessionCompleted({ metadata: { ...CHECKOUT_METADATA, tenant_slug: 'Not A Slug' } }),
      '',
    );
    expect(badSlug.ignored_reason).toBe('incomplete_event: provision.slug');
  });

  it('invoice.paid → active with the first line period end (basil and older shapes)', () => {
    const expected = {
      tenant: 'acme',
      plan_code: 'pro',
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: 'sub_1acme',
      current_period_end: PERIOD_END_ISO,
      event_at: CREATED_ISO,
    };
    expect(stripeAdapter.parse(invoicePaid(), '').change).toEqual({ subscription: expected });
    const legacy = invoicePaid({
      parent: null,
      subscription: 'sub_1acme',
      subscription_details: { metadata: { tenant_slug: 'acme' } },
    });
    const lines = legacy.data.object.lines as { data: Record<string, unknown>[] };
    lines.data[0] = { ...lines.data[0], price: { id: 'price_1pro', lookup_key: 'pro' } };
    expect(stripeAdapter.parse(legacy, '').change).toEqual({ subscription: expected });
    expect(stripeAdapter.parse(invoicePaid({ parent: null }), '').ignored_reason).toBe(
      'not_a_subscription',
    );
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
    const change = stripeAdapter.parse(
      subscriptionEvent('customer.subscription.updated', stripeStatus),
      '',
    ).change;
    expect(change).toEqual({
      subscription: {
        tenant: 'acme',
        plan_code: 'pro',
        status,
        provider: 'stripe',
        provider_subscription_id: 'sub_1acme',
        current_period_end: PERIOD_END_ISO,
        event_at: CREATED_ISO,
      },
    });
  });

  it('deleted is canceled whatever the status; plan from the price lookup_key; legacy period end', () => {
    const deleted = stripeAdapter.parse(
      subscriptionEvent('customer.subscription.deleted', 'active'),
      '',
    );
    expect(deleted.change?.subscription?.status).toBe('canceled');
    const legacy = subscriptionEvent('customer.subscription.created', 'trialing', {
      metadata: { tenant_slug: 'acme' },
      current_period_end: 1_797_592_000,
      items: { data: [{ id: 'si_1', price: { lookup_key: 'pro' } }] },
    });
    expect(stripeAdapter.parse(legacy, '').change?.subscription).toMatchObject({
      plan_code: 'pro',
      status: 'trialing',
      current_period_end: PERIOD_END_ISO,
    });
  });

  it('event_at is the event’s created time (Unix seconds); left out when unreadable', () => {
    const later = {
      ...subscriptionEvent('customer.subscription.updated', 'active'),
      created: 1_795_003_600,
    };
    expect(stripeAdapter.parse(later, '').change?.subscription?.event_at).toBe(
      '2026-11-18T12:06:40.000Z',
    );
    const noTime = {
      ...subscriptionEvent('customer.subscription.updated', 'active'),
      created: null,
    };
    const change = stripeAdapter.parse(noTime, '').change;
    expect(change?.subscription?.status).toBe('active');
    expect(change?.subscription?.event_at).toBeUndefined();
  });

  it('unknown types and statuses are ignored; a non-event is a requete_invalide', () => {
    const unknown = { id: 'evt_x', type: 'charge.refunded', data: { object: { id: 'ch_1' } } };
    expect(stripeAdapter.parse(unknown, '')).toEqual({
      event_key: 'evt_x',
      event_type: 'charge.refunded',
      ignored_reason: 'unsupported_event_type',
    });
    expect(
      stripeAdapter.parse(subscriptionEvent('customer.subscription.updated', 'weird'), '')
        .ignored_reason,
    ).toBe('unsupported_status');
    expect(() => stripeAdapter.parse({ hello: 'world' }, '')).toThrow(
      expect.objectContaining({ code: 'requete_invalide' }),
    );
  });
});
