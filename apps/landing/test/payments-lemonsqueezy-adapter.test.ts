import { ApiError } from '@erp/contract';
import { describe, expect, it } from 'vitest';
import { lemonSqueezyAdapter } from '../src/payments/lemonsqueezy';
import { planResolver } from '../src/payments/plan-prices';
import {
  LS_CUSTOM_DATA,
  LS_PLAN_PRICES,
  lemonSqueezySignature,
  lsSubscription,
  orderCreated,
  sha256Hex,
} from './fixtures/payments/lemonsqueezy';

const SECRET = 'ls_signing_secret_test';
const NOW = new Date('2026-11-23T10:00:00Z');

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

const headers = (value?: string) =>
  new Headers(value === undefined ? {} : { 'X-Signature': value });

describe('lemonsqueezy verify', () => {
  const body = JSON.stringify(orderCreated());
  const valid = lemonSqueezySignature(body, SECRET);

  it('accepts the HMAC of the body (any hex case), whatever the clock says', () => {
    expect(() => lemonSqueezyAdapter.verify(body, headers(valid), SECRET, NOW)).not.toThrow();
    expect(() =>
      lemonSqueezyAdapter.verify(body, headers(valid.toUpperCase()), SECRET, new Date(0)),
    ).not.toThrow();
  });

  it('rejects with the reason', () => {
    expect(reasonOf(() => lemonSqueezyAdapter.verify(body, headers(valid), undefined, NOW))).toBe(
      'not_configured',
    );
    expect(reasonOf(() => lemonSqueezyAdapter.verify(body, headers(), SECRET, NOW))).toBe(
      'missing_header',
    );
    expect(
      reasonOf(() => lemonSqueezyAdapter.verify(body, headers(`sha256=${valid}`), SECRET, NOW)),
    ).toBe('malformed_header');
    expect(
      reasonOf(() => lemonSqueezyAdapter.verify(body, headers(valid.slice(2)), SECRET, NOW)),
    ).toBe('malformed_header');
    expect(
      reasonOf(() =>
        lemonSqueezyAdapter.verify(body.replace('2900', '2901'), headers(valid), SECRET, NOW),
      ),
    ).toBe('no_matching_signature');
    expect(
      reasonOf(() =>
        lemonSqueezyAdapter.verify(
          body,
          headers(lemonSqueezySignature(body, 'other')),
          SECRET,
          NOW,
        ),
      ),
    ).toBe('no_matching_signature');
  });
});

const plans = planResolver(LS_PLAN_PRICES, { identity: false });
const parse = (event: unknown) => {
  const body = JSON.stringify(event);
  return lemonSqueezyAdapter.parse(JSON.parse(body), body, plans);
};
const IDS = { provider_customer_id: '7', provider_subscription_id: '2002' };

describe('lemonsqueezy parse', () => {
  it('subscription_created → the purchase (buyer, custom_data’s reference) + the variant’s plan, keyed by the body’s SHA-256', () => {
    const payload = lsSubscription('subscription_created', 'active');
    const body = JSON.stringify(payload);
    expect(lemonSqueezyAdapter.parse(payload, body, plans)).toEqual({
      event_key: sha256Hex(body),
      event_type: 'subscription_created',
      facts: {
        ...IDS,
        provision: {
          slug: 'initech',
          name: 'Initech',
          admin: { email: 'peter@initech.test', name: 'Peter Gibbons' },
          reference_sha256: sha256Hex(LS_CUSTOM_DATA.reference),
        },
        subscription: {
          plan_code: 'starter',
          status: 'active',
          current_period_end: '2026-12-23T10:00:00.000Z',
          event_at: '2026-11-23T10:05:00.000Z',
        },
      },
    });
  });

  it('custom_data never names the plan or the tenant: variant_id does; unmapped is ignored', () => {
    const facts = parse(
      lsSubscription('subscription_updated', 'active', { variant_id: 302 }),
    ).facts;
    expect(facts).toEqual({
      ...IDS,
      subscription: expect.objectContaining({ plan_code: 'business' }),
    });
    expect(JSON.stringify(facts)).not.toContain('victim');
    expect(
      parse(lsSubscription('subscription_updated', 'active', { variant_id: 999 })).ignored_reason,
    ).toBe('unmapped_price');
  });

  it('an order names no subscription to bind: acknowledged, ignored', () => {
    expect(parse(orderCreated()).ignored_reason).toBe('purchase_is_subscription_created');
  });

  it.each([
    ['subscription_updated', 'on_trial', 'trialing', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'past_due', 'past_due', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'unpaid', 'past_due', '2026-12-23T10:00:00.000Z'],
    ['subscription_cancelled', 'active', 'canceled', '2027-01-01T00:00:00.000Z'],
    ['subscription_expired', 'active', 'expired', '2027-01-01T00:00:00.000Z'],
  ])('%s (%s) → %s, no purchase', (event, lsStatus, status, periodEnd) => {
    const facts = parse(
      lsSubscription(event, lsStatus, { ends_at: '2027-01-01T00:00:00.000000Z' }),
    ).facts;
    expect(facts?.provision).toBeUndefined();
    expect(facts?.subscription).toMatchObject({ status, current_period_end: periodEnd });
  });

  it('event_at is the subscription’s updated_at, else its created_at', () => {
    const noUpdate = parse(lsSubscription('subscription_updated', 'active', { updated_at: null }));
    expect(noUpdate.facts?.subscription?.event_at).toBe('2026-11-23T10:00:00.000Z');
  });

  it('unknown event names are ignored; a payload without meta is a requete_invalide', () => {
    expect(
      parse({ meta: { event_name: 'license_key_created' }, data: { id: 1, attributes: {} } })
        .ignored_reason,
    ).toBe('unsupported_event_type');
    expect(() => parse({ data: {} })).toThrow(
      expect.objectContaining({ code: 'requete_invalide' }),
    );
  });
});
