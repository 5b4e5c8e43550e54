import { createHmac } from 'node:crypto';
import { ApiError } from '@erp/contract';
import { describe, expect, it } from 'vitest';
import { paddleAdapter } from '../src/payments/paddle';
import {
  PADDLE_CUSTOM_DATA,
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

describe('paddle parse', () => {
  it('transaction.completed → provision (admin from custom_data) + active subscription', () => {
    expect(paddleAdapter.parse(transactionCompleted(), '')).toEqual({
      event_key: 'evt_01paddletxn',
      event_type: 'transaction.completed',
      change: {
        provision: {
          slug: 'globex',
          name: 'Globex SAS',
          plan_code: 'starter',
          admin: { email: 'hank@globex.test', name: 'Hank Scorpio' },
          reference: 'txn_01globex',
        },
        subscription: {
          tenant: 'globex',
          plan_code: 'starter',
          status: 'active',
          provider: 'paddle',
          provider_subscription_id: 'sub_01globex',
          current_period_end: '2026-12-23T10:00:00.000Z',
          event_at: '2026-11-23T10:00:00.123Z',
        },
      },
    });
  });

  it('a transaction without subscription or admin e-mail is ignored', () => {
    expect(
      paddleAdapter.parse(transactionCompleted({ subscription_id: null }), '').ignored_reason,
    ).toBe('not_a_subscription');
    const { admin_email: _, ...rest } = PADDLE_CUSTOM_DATA;
    expect(
      paddleAdapter.parse(transactionCompleted({ custom_data: rest }), '').ignored_reason,
    ).toBe('incomplete_event: provision.admin.email');
  });

  it('the plan may come from the price custom_data', () => {
    const { plan_code: _, ...rest } = PADDLE_CUSTOM_DATA;
    const event = paddleSubscription('subscription.updated', 'active', {
      custom_data: rest,
      items: [{ price: { id: 'pri_1', custom_data: { plan_code: 'business' } } }],
    });
    expect(paddleAdapter.parse(event, '').change?.subscription?.plan_code).toBe('business');
  });

  it.each([
    ['subscription.created', 'trialing', 'trialing'],
    ['subscription.updated', 'active', 'active'],
    ['subscription.updated', 'past_due', 'past_due'],
    ['subscription.updated', 'paused', 'canceled'],
    ['subscription.updated', 'canceled', 'canceled'],
    ['subscription.canceled', 'canceled', 'canceled'],
  ] as const)('%s with %s → %s', (type, paddleStatus, status) => {
    expect(paddleAdapter.parse(paddleSubscription(type, paddleStatus), '').change).toEqual({
      subscription: {
        tenant: 'globex',
        plan_code: 'starter',
        status,
        provider: 'paddle',
        provider_subscription_id: 'sub_01globex',
        current_period_end: '2026-12-23T10:00:00.000Z',
        event_at: '2026-11-23T10:00:01.000Z',
      },
    });
  });

  it('a canceled subscription without a billing period has no period end; unknown types are ignored', () => {
    const ended = paddleSubscription('subscription.canceled', 'canceled', {
      current_billing_period: null,
    });
    expect(paddleAdapter.parse(ended, '').change?.subscription?.current_period_end).toBeUndefined();
    const unknown = { event_id: 'evt_u', event_type: 'customer.updated', data: { id: 'ctm_1' } };
    expect(paddleAdapter.parse(unknown, '')).toEqual({
      event_key: 'evt_u',
      event_type: 'customer.updated',
      ignored_reason: 'unsupported_event_type',
    });
  });
});
