import {
  type JobPayload,
  type jobs,
  type SubscriptionChange,
  SubscriptionChangeSchema,
} from '@erp/contract';
import { z } from 'zod';
import type { LandingDeps } from './deps';
import {
  describeAnswer,
  errorCode,
  portalVerdict,
  postToPortal,
  RetryLater,
} from './portal-client';

type Provision = NonNullable<SubscriptionChange['provision']>;

/** What the worker reads of the portal's 201/200 to provisioning (the password only once). */
const ProvisionedAnswer = z.object({
  tenant: z.object({ slug: z.string() }).partial().optional(),
  admin: z.object({ email: z.string(), password: z.string() }).partial().optional(),
});

interface EventKey {
  provider: string;
  event_key: string;
}

/**
 * Forwards one payment-provider event's normalised change to the portal: provisioning first
 * (a first purchase), then the subscription. Passing troubles throw (graphile-worker retries);
 * answers that will never change mark the event `ignored` with the reason.
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
    if (!change.provision && !change.subscription) return ignore(deps, key, 'nothing_to_forward');

    if (change.provision && !(await provision(deps, key, change.provision))) return;
    if (change.subscription) {
      const path = '/api/v1/internal/subscriptions';
      const response = await postToPortal(deps, path, change.subscription);
      const verdict = response.status === 404 ? 'retry' : portalVerdict(response.status);
      // 404: the tenant is not provisioned yet (the provider's events arrive in any order).
      if (verdict === 'retry') throw new RetryLater(describeAnswer(path, response));
      if (verdict === 'permanent') {
        deps.logger.error('portal refused a subscription change', {
          ...key,
          status: response.status,
          code: errorCode(response),
        });
        return ignore(deps, key, reasonOf(response.status, errorCode(response)));
      }
      // Older than the change the portal already applied (providers do not order their
      // events): the portal wrote nothing, and that is the event settled.
      if ((response.json as { applied?: unknown } | undefined)?.applied === false) {
        deps.logger.info('stale subscription change ignored', key);
      }
    }
    await deps.pool.query(
      `UPDATE landing.provider_events SET outcome = 'forwarded', forwarded_at = now(), reason = NULL
       WHERE provider = $1 AND event_key = $2`,
      [key.provider, key.event_key],
    );
    deps.logger.info('payment event forwarded to the portal', key);
  };
}

/**
 * Provisions the tenant (idempotent by the event's key) and stores the onboarding in its own
 * statement, so a later failure of the subscription call cannot lose the one-time password.
 * Returns false when the event is settled as ignored.
 */
async function provision(deps: LandingDeps, key: EventKey, provision: Provision) {
  const path = '/api/v1/internal/tenants';
  const { reference, ...body } = provision;
  const response = await postToPortal(deps, path, body, {
    'idempotency-key': `${key.provider}:${key.event_key}`,
  });
  const verdict = portalVerdict(response.status);
  if (verdict === 'retry') throw new RetryLater(describeAnswer(path, response));
  if (verdict === 'permanent') {
    const code = errorCode(response);
    const reason = response.status === 409 ? 'slug_taken' : reasonOf(response.status, code);
    deps.logger.error('portal refused to provision a tenant: operators must settle it', {
      ...key,
      slug: provision.slug,
      status: response.status,
      code,
      reason,
    });
    await ignore(deps, key, reason);
    return false;
  }
  const answer = ProvisionedAnswer.safeParse(response.json);
  const answered = answer.success ? answer.data : {};
  await deps.pool.query(
    `INSERT INTO landing.onboardings
       (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + interval '24 hours')
     ON CONFLICT (reference) DO NOTHING`,
    [
      reference,
      key.provider,
      answered.tenant?.slug ?? provision.slug,
      answered.admin?.email ?? provision.admin.email,
      answered.admin?.password ?? null,
    ],
  );
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
