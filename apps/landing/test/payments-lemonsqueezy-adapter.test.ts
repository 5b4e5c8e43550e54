import { ApiError } from '@erp/contract';
import { describe, expect, it } from 'vitest';
import { lemonSqueezyAdapter } from '../src/payments/lemonsqueezy';
import {
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

describe('lemonsqueezy parse', () => {
  it('order_created → provision only, keyed by the SHA-256 of the body', () => {
    const payload = orderCreated();
    const raw = JSON.stringify(payload);
    expect(lemonSqueezyAdapter.parse(payload, raw)).toEqual({
      event_key: sha256Hex(raw),
      event_type: 'order_created',
      change: {
        provision: {
          slug: 'initech',
          name: 'Initech',
          plan_code: 'team',
          admin: { email: 'peter@initech.test', name: 'Peter Gibbons' },
          reference: '1001',
        },
      },
    });
  });

  it('an unpaid order or one without custom data is ignored', () => {
    expect(
      lemonSqueezyAdapter.parse(orderCreated({ status: 'pending' }), '{}').ignored_reason,
    ).toBe('order_not_paid');
    const bare = orderCreated();
    bare.meta = { ...bare.meta, custom_data: undefined as never };
    expect(lemonSqueezyAdapter.parse(bare, '{}').ignored_reason).toBe(
      'incomplete_event: provision.slug, provision.name, provision.plan_code',
    );
  });

  it.each([
    ['subscription_created', 'on_trial', 'trialing', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'active', 'active', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'past_due', 'past_due', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'unpaid', 'past_due', '2026-12-23T10:00:00.000Z'],
    ['subscription_updated', 'paused', 'canceled', '2027-01-01T00:00:00.000Z'],
    ['subscription_cancelled', 'cancelled', 'canceled', '2027-01-01T00:00:00.000Z'],
    ['subscription_expired', 'expired', 'expired', '2027-01-01T00:00:00.000Z'],
  ])('%s with %s → %s', (eventName, lsStatus, status, periodEnd) => {
    const payload = lsSubscription(eventName, lsStatus, { ends_at: '2027-01-01T00:00:00.000000Z' });
    const raw = JSON.stringify(payload);
    expect(lemonSqueezyAdapter.parse(payload, raw)).toEqual({
      event_key: sha256Hex(raw),
      event_type: eventName,
      change: {
        subscription: {
          tenant: 'initech',
          plan_code: 'team',
          status,
          provider: 'lemonsqueezy',
          provider_subscription_id: '2002',
          current_period_end: periodEnd,
          event_at: '2026-11-23T10:05:00.000Z',
        },
      },
    });
  });

  it('event_at is the subscription’s updated_at, else its created_at', () => {
    const eventAt = (attributes: Record<string, unknown>) => {
      const payload = lsSubscription('subscription_updated', 'active', attributes);
      return lemonSqueezyAdapter.parse(payload, JSON.stringify(payload)).change?.subscription
        ?.event_at;
    };
    expect(eventAt({ updated_at: '2026-11-24T08:30:00.000000Z' })).toBe('2026-11-24T08:30:00.000Z');
    expect(eventAt({ updated_at: null })).toBe('2026-11-23T10:00:00.000Z');
    expect(eventAt({ updated_at: null, created_at: null })).toBeUndefined();
  });

  it('unknown event names are ignored; a payload without meta is a requete_invalide', () => {
    const payload = lsSubscription('subscription_payment_success', 'active');
    expect(lemonSqueezyAdapter.parse(payload, 'x').ignored_reason).toBe('unsupported_event_type');
    expect(() => lemonSqueezyAdapter.parse({ data: {} }, 'x')).toThrow(
      expect.objectContaining({ code: 'requete_invalide' }),
    );
  });
});
