import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import { planResolver } from '../src/payments/plan-prices';

const base = {
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://x@127.0.0.1/x',
  PORTAL_URL: 'http://127.0.0.1:9',
};

describe('PAYMENT_PLAN_PRICES', () => {
  it('is a JSON object of price → plan code, {} when unset', () => {
    expect(parseEnv(base).PAYMENT_PLAN_PRICES).toEqual({});
    const prices = { price_1biz: 'business', starter_monthly: 'starter', '301': 'starter' };
    expect(
      parseEnv({ ...base, PAYMENT_PLAN_PRICES: JSON.stringify(prices) }).PAYMENT_PLAN_PRICES,
    ).toEqual(prices);
  });

  it.each([
    ['{not json', 'must be a JSON object'],
    ['["business"]', 'PAYMENT_PLAN_PRICES'],
    ['{"price_1": 42}', 'PAYMENT_PLAN_PRICES'],
    ['{"price_1": ""}', 'PAYMENT_PLAN_PRICES'],
  ])('%s stops the start with a line naming the variable', (value, said) => {
    expect(() => parseEnv({ ...base, PAYMENT_PLAN_PRICES: value })).toThrow(said);
    expect(() => parseEnv({ ...base, PAYMENT_PLAN_PRICES: value })).toThrow(
      /^PAYMENT_PLAN_PRICES: /,
    );
  });

  it('resolves a price by its id, then its lookup key; nothing else names a plan', () => {
    const plans = planResolver({ price_1: 'business', biz_key: 'enterprise' }, { identity: false });
    expect(plans.planFor({ id: 'price_1', lookup_key: 'biz_key' })).toBe('business');
    expect(plans.planFor({ id: 'price_other', lookup_key: 'biz_key' })).toBe('enterprise');
    expect(plans.planFor({ id: 'business', lookup_key: 'starter' })).toBeUndefined();
    expect(plans.planFor(undefined)).toBeUndefined();
  });

  it('in development a plan code is its own lookup key, the lookup key before the id', () => {
    const plans = planResolver({ price_1: 'business' }, { identity: true });
    expect(plans.planFor({ id: 'price_1', lookup_key: 'starter' })).toBe('business');
    expect(plans.planFor({ id: 'price_zz', lookup_key: 'starter' })).toBe('starter');
    expect(plans.planFor({ id: 302 })).toBe('302');
    expect(plans.planFor({ id: 'Not A Code' })).toBeUndefined();
  });
});
