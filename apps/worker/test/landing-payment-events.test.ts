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

/** A provider event as landing stores it, and its job as landing enqueues it. */
async function storeEvent(change: { provision?: boolean; subscription?: boolean } = {}) {
  sequence += 1;
  const eventKey = `evt_${sequence}_${Date.now()}`;
  const slug = `acme-${sequence}`;
  const body = {
    ...(change.provision === false
      ? {}
      : {
          provision: {
            slug,
            name: 'Acme',
            plan_code: 'business',
            admin: { email: 'owner@acme.test', name: 'Owner' },
            reference: `cs_${eventKey}`,
          },
        }),
    ...(change.subscription === false
      ? {}
      : {
          subscription: {
            tenant: slug,
            plan_code: 'business',
            status: 'active',
            provider: 'stripe',
            provider_subscription_id: `sub_${sequence}`,
            current_period_end: '2026-12-23T00:00:00Z',
          },
        }),
  };
  await database.pool.query(
    `INSERT INTO landing.provider_events (provider, event_key, event_type, outcome, change)
     VALUES ('stripe', $1, 'checkout.session.completed', 'queued', $2)`,
    [eventKey, JSON.stringify(body)],
  );
  await addJob(database, TASK, { provider: 'stripe', event_key: eventKey });
  return { eventKey, slug, reference: `cs_${eventKey}` };
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
    [reference],
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
  it('provisions then changes the subscription, with the Idempotency-Key and the key; stores the onboarding with the password', async () => {
    portal.answer(portalAnswers());
    const { eventKey, slug, reference } = await storeEvent();
    const row = await forwarded(eventKey);
    expect(row.forwarded_at).toBeInstanceOf(Date);
    expect(row.reason).toBeNull();
    expect(portal.received.map((r) => r.path)).toEqual([
      '/api/v1/internal/tenants',
      '/api/v1/internal/subscriptions',
    ]);
    const [provision, subscription] = portal.received;
    expect(provision!.headers['idempotency-key']).toBe(`stripe:${eventKey}`);
    expect(provision!.headers['x-api-key']).toBe(INTERNAL_KEY);
    expect(subscription!.headers['x-api-key']).toBe(INTERNAL_KEY);
    expect(provision!.json).toEqual({
      slug,
      name: 'Acme',
      plan_code: 'business',
      admin: { email: 'owner@acme.test', name: 'Owner' },
    });
    expect(subscription!.json).toMatchObject({
      tenant: slug,
      status: 'active',
      provider: 'stripe',
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

  it('404 on the subscription (tenant not provisioned yet) is retried until the portal knows it', async () => {
    portal.answer(
      portalAnswers({
        subscriptions: (i) =>
          i === 0 ? { status: 404, json: { code: 'introuvable' } } : { status: 200, json: {} },
      }),
    );
    const { eventKey } = await storeEvent({ provision: false });
    const job = await failedAttempt(1);
    expect(job.last_error).toMatch(/subscriptions answered 404 introuvable/);
    await forwarded(eventKey);
    expect(portal.received.map((r) => r.path)).toEqual([
      '/api/v1/internal/subscriptions',
      '/api/v1/internal/subscriptions',
    ]);
  });

  it('a 5xx on the subscription after provisioning keeps the password stored by the first attempt', async () => {
    portal.answer(
      portalAnswers({ subscriptions: (i) => (i === 0 ? { status: 503 } : { status: 200 }) }),
    );
    const { eventKey, reference } = await storeEvent();
    await failedAttempt(1);
    await forwarded(eventKey);
    // The replay of provisioning answered 200 without the password: the first one is kept.
    expect(portal.received.map((r) => r.path)).toHaveLength(4);
    expect(portal.received[2]!.headers['idempotency-key']).toBe(`stripe:${eventKey}`);
    expect((await onboarding(reference)).initial_password).toBe(PASSWORD);
  });

  it('409 on provisioning (slug taken): ignored with reason slug_taken, logged, not retried', async () => {
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
    expect(row.reason).toBe('slug_taken');
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
    const { eventKey } = await storeEvent({ provision: false });
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
    const { eventKey } = await storeEvent({ provision: false });
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
