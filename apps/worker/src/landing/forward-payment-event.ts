import {
  type JobPayload,
  jobs,
  type ProviderPurchase,
  type SubscriptionChange,
  SubscriptionChangeSchema,
} from '@erp/contract';
import { enqueueJobs } from '@erp/db';
import { z } from 'zod';
import type { LandingDeps } from './deps';
import {
  describeAnswer,
  errorCode,
  portalVerdict,
  postToPortal,
  RetryLater,
} from './portal-client';

/** What the worker reads of the portal's 201/200 to provisioning (the password only once). */
const ProvisionedAnswer = z.object({
  tenant: z.object({ id: z.string(), slug: z.string() }),
  admin: z.object({ email: z.string(), password: z.string() }).partial().optional(),
});

type EventKey = { provider: string; event_key: string };

interface Binding {
  tenant_id: string;
  provider_customer_id: string;
}

/**
 * Forwards one payment-provider event's normalised change to the portal (SPEC §8). A first
 * purchase provisions a new tenant (a taken slug gets a suffix) and binds it to the provider's
 * customer and subscription; every subscription state goes to the tenant so bound, never to one
 * a checkout's metadata names. Passing troubles throw (graphile-worker retries); answers that
 * will never change mark the event `ignored` with the reason.
 */
export function forwardPaymentEventHandler(deps: LandingDeps) {
  return async function forwardPaymentEvent(key: JobPayload<typeof jobs.forwardPaymentEvent>) {
    const { rows } = await deps.pool.query<{ outcome: string; change: unknown }>(
      'SELECT outcome, change FROM landing.provider_events WHERE provider = $1 AND event_key = $2',
      [key.provider, key.event_key],
    );
    const event = rows[0];
    if (event?.outcome !== 'queued') return;
    const parsed = SubscriptionChangeSchema.safeParse(event.change);
    if (!parsed.success) return ignore(deps, key, 'invalid_change');
    const change = parsed.data;

    let binding = await findBinding(deps, key.provider, change.provider_subscription_id);
    if (!binding && change.provision && change.subscription) {
      binding = await provision(deps, key, change, change.provision, change.subscription.plan_code);
      if (!binding) return;
    }
    // Landing queues a change only once its subscription is bound (or with its provisioning).
    if (!binding) return ignore(deps, key, 'unbound_subscription');
    if (binding.provider_customer_id !== change.provider_customer_id)
      return ignore(deps, key, 'customer_mismatch');
    if (change.subscription && !(await changeSubscription(deps, key, change, binding))) return;
    await deps.pool.query(
      `UPDATE landing.provider_events SET outcome = 'forwarded', forwarded_at = now(), reason = NULL
       WHERE provider = $1 AND event_key = $2`,
      [key.provider, key.event_key],
    );
    deps.logger.info('payment event forwarded to the portal', key);
  };
}

async function findBinding(
  deps: LandingDeps,
  provider: string,
  subscriptionId: string,
): Promise<Binding | undefined> {
  const { rows } = await deps.pool.query<Binding>(
    `SELECT tenant_id, provider_customer_id FROM landing.provider_bindings
     WHERE provider = $1 AND provider_subscription_id = $2`,
    [provider, subscriptionId],
  );
  return rows[0];
}

/**
 * Provisions the new tenant (idempotent per provider subscription: a retry, or a second event
 * of the same purchase, answers the same tenant), then in one transaction binds it, stores the
 * onboarding under the landing-issued reference, and wakes the events of this subscription
 * that waited for the binding. Returns undefined when the event is settled as ignored.
 */
async function provision(
  deps: LandingDeps,
  key: EventKey,
  change: SubscriptionChange,
  purchase: ProviderPurchase,
  planCode: string,
): Promise<Binding | undefined> {
  const path = '/api/v1/internal/tenants';
  const body = {
    slug: purchase.slug,
    name: purchase.name,
    plan_code: planCode,
    admin: purchase.admin,
    on_slug_taken: 'suffix',
  };
  const response = await postToPortal(deps, path, body, {
    'idempotency-key': `${key.provider}:subscription:${change.provider_subscription_id}`,
  });
  const verdict = portalVerdict(response.status);
  if (verdict === 'retry') throw new RetryLater(describeAnswer(path, response));
  const answer = ProvisionedAnswer.safeParse(response.json);
  if (verdict === 'permanent' || !answer.success) {
    const code = errorCode(response);
    const reason = verdict === 'permanent' ? reasonOf(response.status, code) : 'invalid_answer';
    deps.logger.error('portal refused to provision a tenant: operators must settle it', {
      ...key,
      slug: purchase.slug,
      status: response.status,
      code,
      reason,
    });
    await ignore(deps, key, reason);
    return undefined;
  }
  const { tenant, admin } = answer.data;
  const binding = { tenant_id: tenant.id, provider_customer_id: change.provider_customer_id };
  const client = await deps.pool.connect();
  let woken: string[] = [];
  try {
    await client.query('BEGIN');
    // Landing decides `waiting` under this lock: no event of this subscription slips between.
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `landing:subscription:${key.provider}:${change.provider_subscription_id}`,
    ]);
    await client.query(
      `INSERT INTO landing.provider_bindings
         (provider, provider_subscription_id, provider_customer_id, tenant_id, tenant_slug)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [
        key.provider,
        change.provider_subscription_id,
        change.provider_customer_id,
        tenant.id,
        tenant.slug,
      ],
    );
    if (purchase.reference_sha256) {
      await client.query(
        `INSERT INTO landing.onboardings
           (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + interval '24 hours')
         ON CONFLICT (reference) DO NOTHING`,
        [
          purchase.reference_sha256,
          key.provider,
          tenant.slug,
          admin?.email ?? purchase.admin.email,
          admin?.password ?? null,
        ],
      );
    }
    const waiting = await client.query<{ event_key: string }>(
      `UPDATE landing.provider_events SET outcome = 'queued', reason = NULL
       WHERE provider = $1 AND provider_subscription_id = $2 AND outcome = 'waiting'
       RETURNING event_key`,
      [key.provider, change.provider_subscription_id],
    );
    woken = waiting.rows.map((row) => row.event_key);
    await enqueueJobs(
      client,
      jobs.forwardPaymentEvent,
      woken.map((event_key) => ({ payload: { provider: key.provider, event_key } })),
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  deps.logger.info('tenant provisioned and bound to its provider subscription', {
    ...key,
    tenant: tenant.slug,
    woken: woken.length,
  });
  return (await findBinding(deps, key.provider, change.provider_subscription_id)) ?? binding;
}

/** The subscription's state, to the bound tenant. False when the event is settled as ignored. */
async function changeSubscription(
  deps: LandingDeps,
  key: EventKey,
  change: SubscriptionChange,
  binding: Binding,
): Promise<boolean> {
  const path = '/api/v1/internal/subscriptions';
  const response = await postToPortal(deps, path, {
    ...change.subscription,
    tenant: binding.tenant_id,
    provider: key.provider,
    provider_subscription_id: change.provider_subscription_id,
  });
  const verdict = portalVerdict(response.status);
  if (verdict === 'retry') throw new RetryLater(describeAnswer(path, response));
  if (verdict === 'permanent') {
    deps.logger.error('portal refused a subscription change', {
      ...key,
      status: response.status,
      code: errorCode(response),
    });
    await ignore(deps, key, reasonOf(response.status, errorCode(response)));
    return false;
  }
  // Older than the change the portal already applied (providers do not order their events):
  // the portal wrote nothing, and that is the event settled.
  if ((response.json as { applied?: unknown } | undefined)?.applied === false) {
    deps.logger.info('stale subscription change ignored', key);
  }
  return true;
}

function reasonOf(status: number, code: string | undefined): string {
  return code ? `portal_${status}_${code}` : `portal_${status}`;
}

async function ignore(deps: LandingDeps, key: EventKey, reason: string): Promise<void> {
  await deps.pool.query(
    `UPDATE landing.provider_events SET outcome = 'ignored', reason = $3
     WHERE provider = $1 AND event_key = $2 AND outcome = 'queued'`,
    [key.provider, key.event_key, reason],
  );
}
