import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from './platform';
import { checkoutCompleted, sendStripeEvent, subscriptionUpdated } from './stripe-events';

let platform: Platform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform?.close());

async function planModules(code: string): Promise<string[]> {
  const plan = await platform.db.db
    .selectFrom('plans')
    .select('modules')
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return [...plan.modules].sort();
}

async function tenantModules(slug: string): Promise<string[] | undefined> {
  const tenant = await platform.db.db
    .selectFrom('tenants')
    .select('modules')
    .where('slug', '=', slug)
    .executeTakeFirst();
  return tenant ? [...tenant.modules].sort() : undefined;
}

describe('a payment provider drives provisioning through landing and the worker', () => {
  const checkout = {
    eventId: 'evt_e2e_checkout_1',
    sessionId: 'cs_test_e2e_1',
    subscriptionId: 'sub_e2e_1',
    slug: 'acme',
    company: 'Acme SARL',
    planCode: 'business',
    email: 'owner@acme.test',
    name: 'Ana Owner',
  };
  let password: string;

  it('a checkout for a new customer ends in a tenant with the plan’s modules whose admin can log in', async () => {
    const sent = await sendStripeEvent(
      platform.landingUrl,
      platform.secrets.paymentSecret,
      checkoutCompleted(checkout),
    );
    expect(sent.response.status).toBe(200);
    expect(sent.body).toMatchObject({ received: true, duplicate: false });

    // The buyer's browser, back on the marketing site, claims its first login once.
    const claim = await eventually('the onboarding to be claimable', async () => {
      const response = await claimOnboarding(checkout.sessionId);
      return response.status === 200
        ? ((await response.json()) as Record<string, string>)
        : undefined;
    });
    expect(claim).toMatchObject({ tenant: 'acme', email: checkout.email });
    expect(claim.password).toEqual(expect.any(String));
    password = String(claim.password);
    expect((await claimOnboarding(checkout.sessionId)).status).toBe(404);

    expect(await tenantModules('acme')).toEqual(await planModules('business'));
    const login = await fetch(`${platform.portalUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: checkout.email, password, tenant: 'acme' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const me = await fetch(`${platform.portalUrl}/api/v1/me`, {
      headers: { authorization: `Bearer ${access_token}`, 'x-tenant': 'acme' },
    });
    const body = (await me.json()) as {
      tenant: { slug: string; modules: string[] };
      rights: string[];
    };
    expect(body.tenant.slug).toBe('acme');
    expect([...body.tenant.modules].sort()).toEqual(await planModules('business'));
    expect(body.rights).toContain('sales:write');

    const subscription = await platform.db.db
      .selectFrom('subscriptions')
      .select(['status', 'plan_code'])
      .where('provider_subscription_id', '=', checkout.subscriptionId)
      .execute();
    expect(subscription).toEqual([{ status: 'active', plan_code: 'business' }]);
  });

  it('the same provider event delivered twice is processed once', async () => {
    const again = await sendStripeEvent(
      platform.landingUrl,
      platform.secrets.paymentSecret,
      checkoutCompleted(checkout),
    );
    expect(again.response.status).toBe(200);
    expect(again.body).toMatchObject({ received: true, duplicate: true });
    const rows = await sql<{ n: number }>`
      SELECT (SELECT count(*)::int FROM tenants WHERE slug = 'acme')
           + (SELECT count(*)::int FROM landing.provider_events WHERE event_key = ${checkout.eventId})
           + (SELECT count(*)::int FROM subscriptions WHERE provider_subscription_id = ${checkout.subscriptionId}) AS n
    `.execute(platform.db.db);
    expect(rows.rows[0]!.n).toBe(3);
  });

  it('with the portal stopped, the provider still gets its 2xx and the change arrives once the portal is back', async () => {
    await platform.stop('portal');
    const upgrade = subscriptionUpdated({
      eventId: 'evt_e2e_upgrade_1',
      subscriptionId: checkout.subscriptionId,
      slug: 'acme',
      planCode: 'enterprise',
      status: 'active',
    });
    const sent = await sendStripeEvent(
      platform.landingUrl,
      platform.secrets.paymentSecret,
      upgrade,
    );
    expect(sent.response.status).toBe(200);
    expect(sent.ms).toBeLessThan(1000);

    // The worker tries, fails (connection refused) and keeps the job for later.
    await eventually('a failed forwarding attempt', async () => {
      const job = await sql<{ attempts: number }>`
        SELECT attempts FROM graphile_worker.jobs WHERE task_identifier = 'landing_forward_payment_event'
      `.execute(platform.db.db);
      return (job.rows[0]?.attempts ?? 0) >= 1;
    });
    expect(await tenantModules('acme')).toEqual(await planModules('business'));

    await platform.start('portal');
    await eventually(
      'the upgrade to reach the portal',
      async () => {
        const modules = await tenantModules('acme');
        return JSON.stringify(modules) === JSON.stringify(await planModules('enterprise'));
      },
      60_000,
    );
    const event = await platform.db.db
      .selectFrom('landing.provider_events')
      .select(['outcome', 'forwarded_at'])
      .where('event_key', '=', 'evt_e2e_upgrade_1')
      .executeTakeFirstOrThrow();
    expect(event.outcome).toBe('forwarded');
    const subscriptions = await platform.db.db
      .selectFrom('subscriptions')
      .select(['plan_code', 'status'])
      .where('provider_subscription_id', '=', checkout.subscriptionId)
      .execute();
    expect(subscriptions).toEqual([{ plan_code: 'enterprise', status: 'active' }]);
  });

  it('a stale downgrade delivered after the upgrade (an older created) changes nothing', async () => {
    const stale = subscriptionUpdated({
      eventId: 'evt_e2e_stale_downgrade_1',
      subscriptionId: checkout.subscriptionId,
      slug: 'acme',
      planCode: 'starter',
      status: 'active',
      created: Math.floor(Date.now() / 1000) - 3600,
    });
    const sent = await sendStripeEvent(platform.landingUrl, platform.secrets.paymentSecret, stale);
    expect(sent.response.status).toBe(200);
    await eventually('the stale downgrade to be forwarded', async () => {
      const event = await platform.db.db
        .selectFrom('landing.provider_events')
        .select('outcome')
        .where('event_key', '=', 'evt_e2e_stale_downgrade_1')
        .executeTakeFirst();
      return event?.outcome === 'forwarded';
    });
    expect(await tenantModules('acme')).toEqual(await planModules('enterprise'));
    const subscriptions = await platform.db.db
      .selectFrom('subscriptions')
      .select(['plan_code', 'status'])
      .where('provider_subscription_id', '=', checkout.subscriptionId)
      .execute();
    expect(subscriptions).toEqual([{ plan_code: 'enterprise', status: 'active' }]);
    const tenant = await platform.db.db
      .selectFrom('tenants')
      .select('plan_code')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    expect(tenant.plan_code).toBe('enterprise');
  });

  it('no secret reached the logs', () => {
    const logs = platform.output.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [
      platform.secrets.internalApiKey,
      platform.secrets.syncApiKey,
      platform.secrets.paymentSecret,
      platform.secrets.adminPassword,
      password,
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});

function claimOnboarding(reference: string): Promise<Response> {
  return fetch(`${platform.landingUrl}/api/onboarding/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
}
