import { createHash } from 'node:crypto';
import { jobs } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningWorker } from '../src/worker';
import { runWorker, waitFor } from './harness';
import {
  addJob,
  captureLogger,
  INTERNAL_KEY,
  jobsOf,
  NO_TICK,
  retryNow,
  type StandInAnswer,
  type StandInRequest,
  startStandIn,
} from './landing-harness';

const TASK = jobs.forwardPaymentEvent;
const PASSWORD = 'Generated-Once-9f8e7d6c5b4a';

let database: TestDatabase;
let worker: RunningWorker;
let portal: Awaited<ReturnType<typeof startStandIn>>;
const log = captureLogger();
let sequence = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  portal = await startStandIn();
  worker = await runWorker(
    database,
    { ERP_SYNC_INTERVAL: NO_TICK, PORTAL_URL: portal.origin, SAAS_INTERNAL_API_KEY: INTERNAL_KEY },
    { logger: log.logger },
  );
});
beforeEach(async () => {
  if (!(await isListening())) await portal.up();
});
afterEach(() => {
  // Neither the shared key nor a generated password ever reaches a log line.
  expect(log.text()).not.toContain(INTERNAL_KEY);
  expect(log.text()).not.toContain(PASSWORD);
});
afterAll(async () => {
  await worker?.stop();
  await portal?.close();
  await database?.close();
});

async function isListening() {
  return fetch(`${portal.origin}/ping`).then(
    () => true,
    () => false,
  );
}

/** The portal's answers: provisioning 201 with a generated password, subscriptions 200. */
function portalAnswers(
  overrides: {
    tenants?: (i: number) => StandInAnswer;
    subscriptions?: (i: number) => StandInAnswer;
  } = {},
) {
  const counts = { tenants: 0, subscriptions: 0 };
  return (request: StandInRequest): StandInAnswer => {
    if (request.path === '/api/v1/internal/tenants') {
      const i = counts.tenants++;
      return (
        overrides.tenants?.(i) ?? {
          status: i === 0 ? 201 : 200,
          json: {
            tenant: { id: crypto.randomUUID(), slug: (request.json as { slug: string }).slug },
            admin: {
              id: crypto.randomUUID(),
              email: 'owner@acme.test',
              ...(i === 0 ? { password: PASSWORD } : {}),
            },
          },
        }
      );
    }
    if (request.path === '/api/v1/internal/subscriptions') {
      const i = counts.subscriptions++;
      return overrides.subscriptions?.(i) ?? { status: 200, json: { id: crypto.randomUUID() } };
    }
    return { status: 404, json: { code: 'introuvable' } };
  };
}

const TENANT_ID = '6f1c2b1e-8d0a-4c55-9a61-3c0f4f6d2a10';

/** A provider event as landing stores it (route.ts), and its job as landing enqueues it. */
async function storeEvent(
  change: { provision?: boolean; subscription?: boolean; outcome?: 'queued' | 'waiting' } = {},
  ids: { n?: number; customer?: string } = {},
) {
  sequence += 1;
  const n = ids.n ?? sequence;
  const eventKey = `evt_${sequence}_${Date.now()}`;
  const slug = `acme-${n}`;
  const reference = `landing-reference-${eventKey}`;
  const body = {
    provider_customer_id: ids.customer ?? `cus_${n}`,
    provider_subscription_id: `sub_${n}`,
    ...(change.provision === false
      ? {}
      : {
          provision: {
            slug,
            name: 'Acme',
            admin: { email: 'owner@acme.test', name: 'Owner' },
            reference_sha256: createHash('sha256').update(reference).digest('hex'),
          },
        }),
    ...(change.subscription === false
      ? {}
      : {
          subscription: {
            plan_code: 'business',
            status: 'active',
            current_period_end: '2026-12-23T00:00:00Z',
          },
        }),
  };
  const outcome = change.outcome ?? 'queued';
  await database.pool.query(
    `INSERT INTO landing.provider_events
       (provider, event_key, event_type, outcome, change, provider_customer_id, provider_subscription_id)
     VALUES ('stripe', $1, 'customer.subscription.updated', $2, $3, $4, $5)`,
    [
      eventKey,
      outcome,
      JSON.stringify(body),
      body.provider_customer_id,
      body.provider_subscription_id,
    ],
  );
  if (outcome === 'queued')
    await addJob(database, TASK, { provider: 'stripe', event_key: eventKey });
  return { eventKey, slug, reference, n, subscription: `sub_${n}` };
}

/** The binding a first purchase of subscription `sub_<n>` made. */
async function bind(n: number) {
  await database.pool.query(
    `INSERT INTO landing.provider_bindings
       (provider, provider_subscription_id, provider_customer_id, tenant_id, tenant_slug)
     VALUES ('stripe', $1, $2, $3, $4)`,
    [`sub_${n}`, `cus_${n}`, TENANT_ID, `bound-${n}`],
  );
}

async function binding(subscription: string) {
  const { rows } = await database.pool.query(
    `SELECT * FROM landing.provider_bindings WHERE provider = 'stripe' AND provider_subscription_id = $1`,
    [subscription],
  );
  return rows[0];
}

/** A subscription-only change of an already bound subscription. */
async function storeBoundChange() {
  sequence += 1;
  await bind(sequence);
  return storeEvent({ provision: false }, { n: sequence });
}

async function eventRow(eventKey: string) {
  const { rows } = await database.pool.query(
    `SELECT * FROM landing.provider_events WHERE provider = 'stripe' AND event_key = $1`,
    [eventKey],
  );
  return rows[0];
}

async function onboarding(reference: string) {
  const { rows } = await database.pool.query(
    `SELECT *, extract(epoch FROM expires_at - created_at)::int AS lifetime FROM landing.onboardings WHERE reference = $1`,
    [createHash('sha256').update(reference).digest('hex')],
  );
  return rows[0];
}

const forwarded = (eventKey: string) =>
  waitFor(async () => {
    const row = await eventRow(eventKey);
    return row?.outcome === 'forwarded' && row;
  });

/** Waits for the job's failed attempt number `n`, then makes it due now. */
async function failedAttempt(n: number) {
  const [job] = await waitFor(async () => {
    const jobs = await jobsOf(database, TASK.name);
    return jobs[0]?.attempts === n && !jobs[0].locked_at && jobs;
  });
  await retryNow(database, TASK.name);
  return job!;
}

describe('landing_forward_payment_event', () => {
  it('provisions (a taken slug suffixed), binds, then changes the bound tenant’s subscription; stores the onboarding under the reference’s digest', async () => {
    portal.answer(portalAnswers());
    const { eventKey, slug, reference, subscription: subscriptionId } = await storeEvent();
    const row = await forwarded(eventKey);
    expect(row.forwarded_at).toBeInstanceOf(Date);
    expect(row.reason).toBeNull();
    expect(portal.received.map((r) => r.path)).toEqual([
      '/api/v1/internal/tenants',
      '/api/v1/internal/subscriptions',
    ]);
    const [provision, subscription] = portal.received;
    expect(provision!.headers['idempotency-key']).toBe(`stripe:subscription:${subscriptionId}`);
    expect(provision!.headers['x-api-key']).toBe(INTERNAL_KEY);
    expect(subscription!.headers['x-api-key']).toBe(INTERNAL_KEY);
    expect(provision!.json).toEqual({
      slug,
      name: 'Acme',
      plan_code: 'business',
      admin: { email: 'owner@acme.test', name: 'Owner' },
      on_slug_taken: 'suffix',
    });
    const bound = await binding(subscriptionId);
    expect(bound).toMatchObject({ provider_customer_id: `cus_${sequence}`, tenant_slug: slug });
    // The tenant is the binding's (the portal's answer), by id: never a slug from metadata.
    expect(subscription!.json).toEqual({
      tenant: bound.tenant_id,
      plan_code: 'business',
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: subscriptionId,
      current_period_end: '2026-12-23T00:00:00Z',
    });
    const stored = await onboarding(reference);
    expect(stored).toMatchObject({
      provider: 'stripe',
      tenant_slug: slug,
      admin_email: 'owner@acme.test',
      initial_password: PASSWORD,
      claimed_at: null,
    });
    expect(stored.lifetime).toBe(24 * 3600);
    await waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);
  });

  it('portal down: the job fails and is retried; once the portal is up the change arrives exactly once', async () => {
    portal.answer(portalAnswers());
    await portal.down();
    const { eventKey, reference } = await storeEvent();
    const job = await waitFor(async () => {
      const jobs = await jobsOf(database, TASK.name);
      return jobs[0]?.attempts === 1 && !jobs[0].locked_at && jobs[0];
    });
    expect(job.last_error).toMatch(/ECONNREFUSED/);
    expect((await eventRow(eventKey)).outcome).toBe('queued');
    await portal.up();
    await retryNow(database, TASK.name);
    await forwarded(eventKey);
    expect(portal.received.map((r) => r.path)).toEqual([
      '/api/v1/internal/tenants',
      '/api/v1/internal/subscriptions',
    ]);
    expect((await onboarding(reference)).initial_password).toBe(PASSWORD);
  });

  it('a change of a subscription no purchase bound is ignored, nothing sent (landing only queues bound ones)', async () => {
    portal.answer(portalAnswers());
    const { eventKey } = await storeEvent({ provision: false });
    const row = await waitFor(async () => {
      const r = await eventRow(eventKey);
      return r?.outcome === 'ignored' && r;
    });
    expect(row.reason).toBe('unbound_subscription');
    expect(portal.received).toHaveLength(0);
  });

  it('a change from another customer than the bound one is ignored, nothing sent', async () => {
    portal.answer(portalAnswers());
    sequence += 1;
    await bind(sequence);
    const { eventKey } = await storeEvent(
      { provision: false },
      { n: sequence, customer: 'cus_other' },
    );
    const row = await waitFor(async () => {
      const r = await eventRow(eventKey);
      return r?.outcome === 'ignored' && r;
    });
    expect(row.reason).toBe('customer_mismatch');
    expect(portal.received).toHaveLength(0);
  });

  it('the binding wakes the events of its subscription that waited, which then go to the bound tenant', async () => {
    portal.answer(portalAnswers());
    sequence += 1;
    const n = sequence;
    const waiting = await storeEvent({ provision: false, outcome: 'waiting' }, { n });
    const purchase = await storeEvent({}, { n });
    await forwarded(purchase.eventKey);
    const woken = await forwarded(waiting.eventKey);
    expect(woken.reason).toBeNull();
    const bound = await binding(`sub_${n}`);
    const changes = portal.received.filter((r) => r.path === '/api/v1/internal/subscriptions');
    expect(changes.map((r) => (r.json as { tenant: string }).tenant)).toEqual([
      bound.tenant_id,
      bound.tenant_id,
    ]);
    expect(portal.received.filter((r) => r.path === '/api/v1/internal/tenants')).toHaveLength(1);
  });

  it('a 5xx on the subscription after provisioning keeps the password stored by the first attempt', async () => {
    portal.answer(
      portalAnswers({ subscriptions: (i) => (i === 0 ? { status: 503 } : { status: 200 }) }),
    );
    const { eventKey, reference } = await storeEvent();
    await failedAttempt(1);
    await forwarded(eventKey);
    // The retry finds the binding: no second provisioning, the first password is kept.
    expect(portal.received.map((r) => r.path)).toEqual([
      '/api/v1/internal/tenants',
      '/api/v1/internal/subscriptions',
      '/api/v1/internal/subscriptions',
    ]);
    expect((await onboarding(reference)).initial_password).toBe(PASSWORD);
  });

  it('409 on provisioning: ignored with the reason, logged, not retried, nothing bound', async () => {
    portal.answer(
      portalAnswers({
        tenants: () => ({ status: 409, json: { code: 'conflit', params: {}, message: 'x' } }),
      }),
    );
    const { eventKey, reference } = await storeEvent();
    const row = await waitFor(async () => {
      const r = await eventRow(eventKey);
      return r?.outcome === 'ignored' && r;
    });
    expect(row.reason).toBe('portal_409_conflit');
    expect(await binding(`sub_${sequence}`)).toBeUndefined();
    expect(row.forwarded_at).toBeNull();
    await waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);
    expect(portal.received.map((r) => r.path)).toEqual(['/api/v1/internal/tenants']);
    expect(await onboarding(reference)).toBeUndefined();
    expect(log.lines.some((l) => l.includes('"level":"error"') && l.includes(eventKey))).toBe(true);
  });

  it('another 4xx on the subscription is permanent: ignored with the status as reason', async () => {
    portal.answer(
      portalAnswers({ subscriptions: () => ({ status: 400, json: { code: 'requete_invalide' } }) }),
    );
    const { eventKey } = await storeBoundChange();
    const row = await waitFor(async () => {
      const r = await eventRow(eventKey);
      return r?.outcome === 'ignored' && r;
    });
    expect(row.reason).toBe('portal_400_requete_invalide');
    await waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);
    expect(portal.received).toHaveLength(1);
  });

  it('a stale change the portal did not apply (applied: false) is forwarded, logged at info', async () => {
    portal.answer(
      portalAnswers({ subscriptions: () => ({ status: 200, json: { applied: false } }) }),
    );
    const { eventKey } = await storeBoundChange();
    await forwarded(eventKey);
    const stale = log.lines.filter(
      (l) => l.includes('stale subscription change ignored') && l.includes(eventKey),
    );
    expect(stale).toHaveLength(1);
    expect(stale[0]).toContain('"level":"info"');
  });

  it('an event already forwarded, or unknown, is not sent again', async () => {
    portal.answer(portalAnswers());
    const { eventKey } = await storeEvent();
    await forwarded(eventKey);
    await waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);
    portal.answer(portalAnswers());
    await addJob(database, TASK, { provider: 'stripe', event_key: eventKey });
    await addJob(database, TASK, { provider: 'stripe', event_key: 'evt_unknown' });
    await waitFor(async () => (await jobsOf(database, TASK.name)).length === 0);
    expect(portal.received).toHaveLength(0);
  });
});
