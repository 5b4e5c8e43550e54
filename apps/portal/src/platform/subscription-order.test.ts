import { MODULES } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, INTERNAL_KEY } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

const T0 = Date.parse('2026-11-23T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

async function setup() {
  const tenant = await portal.provisionTenant('starter');
  const change = async (plan_code: string, event_at?: string, status = 'active') => {
    const res = await portal.json(
      await portal.post(
        '/api/v1/internal/subscriptions',
        {
          tenant: tenant.slug,
          plan_code,
          status,
          provider: 'stripe',
          provider_subscription_id: `sub_${tenant.slug}`,
          current_period_end: '2027-01-01T00:00:00Z',
          ...(event_at ? { event_at } : {}),
        },
        { 'x-api-key': INTERNAL_KEY },
      ),
    );
    expect(res.status).toBe(200);
    return res.body;
  };
  const stored = async () => {
    const t = await portal.tdb.db
      .selectFrom('tenants')
      .select(['plan_code', 'modules'])
      .where('id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    const s = await portal.tdb.db
      .selectFrom('subscriptions')
      .select(['plan_code', 'status', 'provider_event_at', 'updated_at'])
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    return { tenant: t, subscription: s };
  };
  return { change, stored };
}

describe('subscription changes arriving out of order', () => {
  it('applies a newer change and ignores an older one, writing nothing', async () => {
    const { change, stored } = await setup();
    const first = await change('business', at(0));
    expect(first).toMatchObject({ applied: true, plan_code: 'business', status: 'active' });
    const newer = await change('enterprise', at(5));
    expect(newer).toMatchObject({ applied: true, plan_code: 'enterprise' });
    expect(newer.tenant_modules).toHaveLength(MODULES.length);
    const before = await stored();
    expect(before.subscription.provider_event_at?.toISOString()).toBe(at(5));

    const stale = await change('starter', at(-60), 'canceled');
    expect(stale).toMatchObject({
      applied: false,
      id: newer.id,
      plan_code: 'enterprise',
      status: 'active',
      current_period_end: '2027-01-01T00:00:00.000Z',
    });
    expect(stale.tenant_modules).toEqual(newer.tenant_modules);
    expect(await stored()).toEqual(before);
  });

  it('re-applies a change of the same time, idempotently', async () => {
    const { change, stored } = await setup();
    const once = await change('enterprise', at(0));
    const twice = await change('enterprise', at(0));
    expect(twice).toEqual(once);
    expect(twice.applied).toBe(true);
    const after = await stored();
    expect(after.tenant).toMatchObject({ plan_code: 'enterprise' });
    expect(after.tenant.modules).toHaveLength(MODULES.length);
    expect(after.subscription.provider_event_at?.toISOString()).toBe(at(0));
  });

  it('always applies a change without event_at, keeping the known event time', async () => {
    const { change, stored } = await setup();
    const untimed = await change('business');
    expect(untimed.applied).toBe(true);
    expect((await stored()).subscription.provider_event_at).toBeNull();
    await change('enterprise', at(5));
    const after = await change('starter', undefined, 'active');
    expect(after).toMatchObject({ applied: true, plan_code: 'starter' });
    const now = await stored();
    expect(now.tenant).toEqual({ plan_code: 'starter', modules: ['sales', 'crm'] });
    expect(now.subscription.provider_event_at?.toISOString()).toBe(at(5));
    // The known time still orders what comes next.
    expect((await change('business', at(4))).applied).toBe(false);
    expect((await change('business', at(6))).applied).toBe(true);
  });
});

describe('a subscription stays with its tenant', () => {
  it('the same provider subscription for another tenant is 409 conflit, and changes nothing', async () => {
    const owner = await portal.provisionTenant('starter');
    const other = await portal.provisionTenant('starter');
    const change = (tenant: string, plan_code: string) =>
      portal
        .post(
          '/api/v1/internal/subscriptions',
          {
            tenant,
            plan_code,
            status: 'active',
            provider: 'stripe',
            provider_subscription_id: `sub_owned_${owner.slug}`,
          },
          { 'x-api-key': INTERNAL_KEY },
        )
        .then(portal.json);
    expect((await change(owner.slug, 'business')).status).toBe(200);
    const moved = await change(other.slug, 'starter');
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({
      code: 'conflit',
      params: { field: 'provider_subscription_id' },
    });
    const rows = await portal.tdb.db
      .selectFrom('tenants')
      .select(['id', 'plan_code'])
      .where('id', 'in', [owner.id, other.id])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.plan_code]))).toEqual({
      [owner.id]: 'business',
      [other.id]: 'starter',
    });
  });
});
