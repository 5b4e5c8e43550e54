/**
 * What a payment provider's event may decide (SPEC §8), end to end: the real landing, worker
 * and portal as processes, Stripe events signed as Stripe signs them, two tenants.
 */
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from './platform';
import {
  checkoutCompleted,
  priceOf,
  sendStripeEvent,
  startOnboarding,
  stripePurchase,
  subscriptionUpdated,
} from './stripe-events';

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

async function tenant(slug: string) {
  const row = await platform.db.db
    .selectFrom('tenants')
    .select(['id', 'plan_code', 'modules', 'updated_at'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row && { ...row, modules: [...row.modules].sort() };
}

async function tenantModules(slug: string): Promise<string[] | undefined> {
  return (await tenant(slug))?.modules;
}

async function eventRow(eventKey: string) {
  return platform.db.db
    .selectFrom('landing.provider_events')
    .select(['outcome', 'reason', 'forwarded_at'])
    .where('event_key', '=', eventKey)
    .executeTakeFirst();
}

const send = (event: object) =>
  sendStripeEvent(platform.landingUrl, platform.secrets.paymentSecret, event);

/** Waits until the worker has no payment event left to forward (each takes a poll or two). */
async function settled() {
  await eventually('the payment events to be settled', async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs
      WHERE task_identifier = 'landing_forward_payment_event'`.execute(platform.db.db);
    return rows[0]!.n === 0;
  });
}

function claimOnboarding(reference: string): Promise<Response> {
  return fetch(`${platform.landingUrl}/api/onboarding/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
}

describe('a payment provider drives provisioning through landing and the worker', () => {
  const checkout = {
    eventId: 'evt_e2e_checkout_1',
    sessionId: 'cs_test_e2e_1',
    subscriptionId: 'sub_e2e_1',
    customerId: 'cus_e2e_acme',
    slug: 'acme',
    company: 'Acme SARL',
    // The checkout's metadata asks for the top plan; the price bought is `business`.
    planCode: 'enterprise',
    email: 'owner@acme.test',
    name: 'Ana Owner',
  };
  let password: string;

  it('a purchase ends in a tenant on the plan of the price bought, not the metadata’s; the landing reference claims the login once, the checkout id never', async () => {
    const purchase = await stripePurchase(
      platform.landingUrl,
      platform.secrets.paymentSecret,
      checkout,
      priceOf('business'),
    );
    expect(purchase.checkout.response.status).toBe(200);
    expect(purchase.checkout.body).toMatchObject({ received: true, duplicate: false });
    expect(purchase.subscription.body).toMatchObject({ outcome: 'queued' });
    expect(purchase.reference).toMatch(/^[\w-]{43}$/);

    // The buyer's browser, back on the marketing site, claims its first login once.
    const claim = await eventually('the onboarding to be claimable', async () => {
      // The provider's checkout id claims nothing, before and after provisioning.
      expect((await claimOnboarding(checkout.sessionId)).status).toBe(404);
      const response = await claimOnboarding(purchase.reference);
      return response.status === 200
        ? ((await response.json()) as Record<string, string>)
        : undefined;
    });
    expect(claim).toMatchObject({ tenant: 'acme', email: checkout.email });
    expect(claim.password).toEqual(expect.any(String));
    password = String(claim.password);
    expect((await claimOnboarding(purchase.reference)).status).toBe(404);
    expect((await claimOnboarding(checkout.sessionId)).status).toBe(404);

    await settled();
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
    const body = (await me.json()) as { tenant: { slug: string; modules: string[] } };
    expect(body.tenant.slug).toBe('acme');
    expect([...body.tenant.modules].sort()).toEqual(await planModules('business'));

    const subscription = await platform.db.db
      .selectFrom('subscriptions')
      .select(['status', 'plan_code'])
      .where('provider_subscription_id', '=', checkout.subscriptionId)
      .execute();
    expect(subscription).toEqual([{ status: 'active', plan_code: 'business' }]);
  });

  it('the same provider event delivered twice is processed once', async () => {
    const again = await send(checkoutCompleted(checkout));
    expect(again.response.status).toBe(200);
    expect(again.body).toMatchObject({ received: true, duplicate: true });
    const rows = await sql<{ n: number }>`
      SELECT (SELECT count(*)::int FROM tenants WHERE slug = 'acme')
           + (SELECT count(*)::int FROM landing.provider_events WHERE event_key = ${checkout.eventId})
           + (SELECT count(*)::int FROM subscriptions WHERE provider_subscription_id = ${checkout.subscriptionId}) AS n
    `.execute(platform.db.db);
    expect(rows.rows[0]!.n).toBe(3);
  });

  const second = {
    eventId: 'evt_e2e_checkout_2',
    sessionId: 'cs_test_e2e_2',
    subscriptionId: 'sub_e2e_2',
    customerId: 'cus_e2e_second',
    // Asks for acme's slug: a purchase never lands in an existing tenant.
    slug: 'acme',
    company: 'Second Buyer',
    planCode: 'starter',
    email: 'owner@second.test',
    name: 'Sam Second',
  };

  it('a first purchase whose slug is taken gets a new tenant with another slug, never the existing one — its subscription event first', async () => {
    const before = await tenant('acme');
    const reference = await startOnboarding(platform.landingUrl, 'starter', second.email);
    // Providers do not order their deliveries: the subscription before its checkout.
    const early = await send(
      subscriptionUpdated({
        eventId: 'evt_e2e_second_created',
        subscriptionId: second.subscriptionId,
        customerId: second.customerId,
        slug: 'acme',
        planCode: 'starter',
        status: 'active',
        type: 'created',
      }),
    );
    expect(early.body).toMatchObject({ outcome: 'waiting' });
    await send(checkoutCompleted({ ...second, reference }));
    const claim = await eventually('the second onboarding', async () => {
      const response = await claimOnboarding(reference);
      return response.status === 200 ? ((await response.json()) as { tenant: string }) : undefined;
    });
    expect(claim.tenant).toBe('acme-2');
    await settled();
    expect(await tenantModules('acme-2')).toEqual(await planModules('starter'));
    expect(await eventRow('evt_e2e_second_created')).toMatchObject({ outcome: 'forwarded' });
    // acme is as it was: same plan, same only member.
    expect(await tenant('acme')).toEqual(before);
    const members = await sql<{ email: string }>`
      SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id JOIN tenants t ON t.id = m.tenant_id
      WHERE t.slug = 'acme'`.execute(platform.db.db);
    expect(members.rows).toEqual([{ email: checkout.email }]);
  });

  it('a signed customer.subscription.updated from an unknown customer changes no tenant, whatever its metadata names', async () => {
    const before = { acme: await tenant('acme'), second: await tenant('acme-2') };
    const stranger = await send(
      subscriptionUpdated({
        eventId: 'evt_e2e_stranger',
        subscriptionId: 'sub_e2e_stranger',
        customerId: 'cus_e2e_stranger',
        slug: 'acme',
        planCode: 'starter',
        status: 'canceled',
      }),
    );
    expect(stranger.response.status).toBe(200);
    // acme's own subscription id, from another customer: not acme's customer, so nothing.
    const impostor = await send(
      subscriptionUpdated({
        eventId: 'evt_e2e_impostor',
        subscriptionId: checkout.subscriptionId,
        customerId: 'cus_e2e_stranger',
        slug: 'acme',
        planCode: 'starter',
        status: 'canceled',
      }),
    );
    expect(impostor.response.status).toBe(200);
    await settled();
    // Give the worker time to have done something, were it going to.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await eventRow('evt_e2e_stranger')).toMatchObject({
      outcome: 'waiting',
      reason: 'awaiting_purchase',
    });
    expect(await eventRow('evt_e2e_impostor')).toMatchObject({
      outcome: 'ignored',
      reason: 'customer_mismatch',
    });
    expect({ acme: await tenant('acme'), second: await tenant('acme-2') }).toEqual(before);
  });

  it('a change of one tenant’s subscription whose metadata names the other tenant and another plan applies to its own tenant, on its price’s plan', async () => {
    const before = await tenant('acme');
    await send(
      subscriptionUpdated({
        eventId: 'evt_e2e_second_upgrade',
        subscriptionId: second.subscriptionId,
        customerId: second.customerId,
        slug: 'acme',
        planCode: 'starter',
        price: priceOf('business'),
        status: 'active',
      }),
    );
    await eventually('the second tenant’s upgrade', async () => {
      return (await eventRow('evt_e2e_second_upgrade'))?.outcome === 'forwarded';
    });
    expect(await tenantModules('acme-2')).toEqual(await planModules('business'));
    expect(await tenant('acme')).toEqual(before);
  });

  it('with the portal stopped, the provider still gets its 2xx and the change arrives once the portal is back', async () => {
    await platform.stop('portal');
    const upgrade = subscriptionUpdated({
      eventId: 'evt_e2e_upgrade_1',
      subscriptionId: checkout.subscriptionId,
      customerId: checkout.customerId,
      slug: 'acme',
      planCode: 'starter',
      price: priceOf('enterprise'),
      status: 'active',
    });
    const sent = await send(upgrade);
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
    // The worker records the forwarding once the portal has answered, after the portal committed
    // the change: the row follows the modules, it does not precede them.
    await eventually(
      'the event recorded as forwarded',
      async () => (await eventRow('evt_e2e_upgrade_1'))?.outcome === 'forwarded',
    );
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
      customerId: checkout.customerId,
      slug: 'acme',
      planCode: 'starter',
      status: 'active',
      created: Math.floor(Date.now() / 1000) - 3600,
    });
    const sent = await send(stale);
    expect(sent.response.status).toBe(200);
    await eventually('the stale downgrade to be forwarded', async () => {
      return (await eventRow('evt_e2e_stale_downgrade_1'))?.outcome === 'forwarded';
    });
    expect(await tenantModules('acme')).toEqual(await planModules('enterprise'));
    expect((await tenant('acme'))?.plan_code).toBe('enterprise');
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
