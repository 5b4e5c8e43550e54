import { createHash, createHmac } from 'node:crypto';
import { ApiError } from '@erp/contract';
import { describe, expect, it } from 'vitest';
import { paddleAdapter } from '../src/payments/paddle';
import { planResolver } from '../src/payments/plan-prices';
import {
  PADDLE_CUSTOM_DATA,
  PADDLE_PLAN_PRICES,
  paddleSignature,
  paddleSubscription,
  transactionCompleted,
} from './fixtures/payments/paddle';

const SECRET = 'pdl_ntfset_01test_secret';
const NOW = new Date('2026-11-23T10:00:00Z');
const ts = NOW.getTime() / 1000;

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
  new Headers(value === undefined ? {} : { 'Paddle-Signature': value });

describe('paddle verify', () => {
  const body = JSON.stringify(transactionCompleted());

  it('accepts ts:body signatures within 300 s, and a rotated h1 list', () => {
    expect(() =>
      paddleAdapter.verify(body, headers(paddleSignature(body, SECRET, ts)), SECRET, NOW),
    ).not.toThrow();
    expect(() =>
      paddleAdapter.verify(body, headers(paddleSignature(body, SECRET, ts - 300)), SECRET, NOW),
    ).not.toThrow();
    const rotated = paddleSignature(body, SECRET, ts, ['f'.repeat(64)]);
    expect(rotated).toMatch(/^ts=\d+;h1=f{64};h1=[0-9a-f]{64}$/);
    expect(() => paddleAdapter.verify(body, headers(rotated), SECRET, NOW)).not.toThrow();
  });

  it('rejects with the reason', () => {
    const valid = paddleSignature(body, SECRET, ts);
    expect(reasonOf(() => paddleAdapter.verify(body, headers(valid), undefined, NOW))).toBe(
      'not_configured',
    );
    expect(reasonOf(() => paddleAdapter.verify(body, headers(), SECRET, NOW))).toBe(
      'missing_header',
    );
    expect(
      reasonOf(() => paddleAdapter.verify(body, headers(valid.replace(';', ',')), SECRET, NOW)),
    ).toBe('malformed_header');
    expect(reasonOf(() => paddleAdapter.verify(`${body}\n`, headers(valid), SECRET, NOW))).toBe(
      'no_matching_signature',
    );
    // Stripe's separator is not Paddle's: an HMAC of `<ts>.<body>` does not verify.
    const dotted = createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex');
    expect(
      reasonOf(() => paddleAdapter.verify(body, headers(`ts=${ts};h1=${dotted}`), SECRET, NOW)),
    ).toBe('no_matching_signature');
    expect(
      reasonOf(() =>
        paddleAdapter.verify(body, headers(paddleSignature(body, SECRET, ts - 301)), SECRET, NOW),
      ),
    ).toBe('timestamp_out_of_tolerance');
    expect(
      reasonOf(() =>
        paddleAdapter.verify(body, headers(paddleSignature(body, SECRET, ts + 301)), SECRET, NOW),
      ),
    ).toBe('timestamp_out_of_tolerance');
  });
});

const plans = planResolver(PADDLE_PLAN_PRICES, { identity: false });
const parse = (event: unknown) => paddleAdapter.parse(event, '', plans);
const IDS = { provider_customer_id: 'ctm_01globex', provider_subscription_id: 'sub_01globex' };
const PERIOD = {
  current_period_end: '2026-12-23T10:00:00.000Z',
};

describe('paddle parse', () => {
  it('transaction.completed → the purchase (admin and reference from custom_data) + active on the price’s plan', () => {
    expect(parse(transactionCompleted())).toEqual({
      event_key: 'evt_01paddletxn',
      event_type: 'transaction.completed',
      facts: {
        ...IDS,
        provision: {
          slug: 'globex',
          name: 'Globex SAS',
          admin: { email: 'hank@globex.test', name: 'Hank Scorpio' },
          reference_sha256: createHash('sha256').update(PADDLE_CUSTOM_DATA.reference).digest('hex'),
        },
        subscription: {
          plan_code: 'starter',
          status: 'active',
          ...PERIOD,
          event_at: '2026-11-23T10:00:00.123Z',
        },
      },
    });
  });

  it('custom_data never names the plan or the tenant: items[].price does; unmapped is ignored', () => {
    const facts = parse(
      transactionCompleted({ items: [{ price: { id: 'pri_01business' } }] }),
    ).facts;
    expect(facts?.subscription?.plan_code).toBe('business');
    expect(JSON.stringify(facts)).not.toContain('victim');
    expect(
      parse(transactionCompleted({ items: [{ price: { id: 'pri_free' } }] })).ignored_reason,
    ).toBe('unmapped_price');
    expect(
      parse(paddleSubscription('subscription.updated', 'active', { items: [] })).ignored_reason,
    ).toBe('unmapped_price');
  });

  it('a renewal transaction is a state, not a purchase; one without subscription is ignored', () => {
    const renewal = parse(
      transactionCompleted({ origin: 'subscription_recurring', custom_data: null }),
    );
    expect(renewal.facts?.provision).toBeUndefined();
    expect(renewal.facts?.subscription?.status).toBe('active');
    expect(parse(transactionCompleted({ subscription_id: null })).ignored_reason).toBe(
      'not_a_subscription',
    );
    const noSlug = parse(transactionCompleted({ custom_data: { admin_email: 'a@b.test' } }));
    expect(noSlug.ignored_reason).toBe('incomplete_event: provision.slug, provision.name');
  });

  it.each([
    ['subscription.created', 'active', 'active'],
    ['subscription.updated', 'trialing', 'trialing'],
    ['subscription.updated', 'past_due', 'past_due'],
    ['subscription.updated', 'paused', 'canceled'],
    ['subscription.canceled', 'active', 'canceled'],
  ] as const)('%s %s → %s, on the mapped price, with no purchase', (type, paddleStatus, status) => {
    expect(parse(paddleSubscription(type, paddleStatus)).facts).toEqual({
      ...IDS,
      subscription: {
        plan_code: 'starter',
        status,
        ...PERIOD,
        event_at: '2026-11-23T10:00:01.000Z',
      },
    });
  });

  it('a canceled subscription without a billing period has no period end; unknown types are ignored', () => {
    const canceled = parse(
      paddleSubscription('subscription.canceled', 'canceled', { current_billing_period: null }),
    );
    expect(canceled.facts?.subscription?.current_period_end).toBeUndefined();
    expect(
      parse({ event_id: 'evt_x', event_type: 'customer.created', data: {} }).ignored_reason,
    ).toBe('unsupported_event_type');
    expect(() => parse({ nope: true })).toThrow(
      expect.objectContaining({ code: 'requete_invalide' }),
    );
  });
});
