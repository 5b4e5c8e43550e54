import { ApiError, isUuid, jobs, RECOVER_MAX_DAYS, WEBHOOK_TEST_EVENT } from '@erp/contract';
import { enqueueJob, enqueueJobs } from '@erp/db';
import { activeTraceparent } from '@erp/telemetry';
import type pg from 'pg';
import type { Deps } from '../deps';
import {
  DELIVERY_COLUMNS,
  type DeliveryRow,
  deliveryNotFound,
  presentDelivery,
} from './deliveries';
import { subscriptionNotFound } from './subscriptions';

const DAY_MS = 24 * 3600 * 1000;
const RETURNING = DELIVERY_COLUMNS.join(', ');

/**
 * Manual deliveries: a test, a retry, a recovery. Each changes the delivery log and enqueues
 * the attempts in one transaction on the owner pool, so a job never names a delivery that was
 * rolled back, and a pending delivery always has its job.
 */
async function inTransaction<T>(deps: Deps, work: (client: pg.PoolClient) => Promise<T>) {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    client.release(broken);
    throw error;
  }
}

/** The subscription, which must be enabled (a disabled one sends nothing, replays included). */
async function enabledSubscription(client: pg.PoolClient, tenantId: string, id: string) {
  const { rows } = await client.query<{ url: string; enabled: boolean }>(
    'SELECT url, enabled FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2 FOR SHARE',
    [id, tenantId],
  );
  const subscription = rows[0];
  if (!subscription) throw subscriptionNotFound(id);
  if (!subscription.enabled) {
    throw new ApiError('conflit', 'The subscription is disabled; enable it first.', {
      reason: 'subscription_disabled',
    });
  }
  return subscription;
}

/** Records a `webhook.test` event and queues its delivery to this subscription alone. */
export async function sendTestDelivery(deps: Deps, tenantId: string, subscriptionId: string) {
  return inTransaction(deps, async (client) => {
    const { url } = await enabledSubscription(client, tenantId, subscriptionId);
    // `events` has forced row-level security: the insert is for this tenant only.
    // SET LOCAL (which Citus propagates), the id checked as a UUID since it is written inline.
    if (!isUuid(tenantId)) throw new Error('tenant id is not a UUID');
    await client.query(`SET LOCAL app.tenant_id = '${tenantId}'`);
    const { rows } = await client.query<DeliveryRow>(
      `WITH ev AS (
         INSERT INTO events (tenant_id, type, resource, resource_id, data, trace_context)
         VALUES ($1::uuid, $3::text, 'webhook_subscription', $2::uuid,
                 jsonb_build_object('object', jsonb_build_object('subscription_id', $2::uuid, 'url', $4::text), 'message', 'A test delivery.'), $6)
         RETURNING id, type)
       INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type, status, attempts, next_attempt_at)
       SELECT $1::uuid, $2::uuid, ev.id, ev.type, 'pending', 0, $5::timestamptz FROM ev
       RETURNING ${RETURNING}`,
      [tenantId, subscriptionId, WEBHOOK_TEST_EVENT, url, deps.now(), activeTraceparent()],
    );
    const delivery = rows[0]!;
    await enqueueJob(client, jobs.webhookDeliver, {
      delivery_id: delivery.id,
      attempt: 1,
      manual: true,
    });
    return presentDelivery(delivery);
  });
}

/** Delivers again now, whatever the status: same delivery id, next attempt number. */
export async function retryDelivery(
  deps: Deps,
  tenantId: string,
  subscriptionId: string,
  deliveryId: string,
) {
  return inTransaction(deps, async (client) => {
    await enabledSubscription(client, tenantId, subscriptionId);
    const { rows } = await client.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $4, updated_at = now()
       WHERE id = $1 AND subscription_id = $2 AND tenant_id = $3
       RETURNING ${RETURNING}`,
      [deliveryId, subscriptionId, tenantId, deps.now()],
    );
    const delivery = rows[0];
    if (!delivery) throw deliveryNotFound(deliveryId);
    await enqueueJob(client, jobs.webhookDeliver, {
      delivery_id: deliveryId,
      attempt: delivery.attempts + 1,
      manual: true,
    });
    return presentDelivery(delivery);
  });
}

/**
 * Queues again every failed delivery of the subscription created, or attempted, since `since`:
 * a delivery made just before its endpoint began failing failed after `failing_since`, and a
 * recover from there must find it.
 */
export async function recoverDeliveries(
  deps: Deps,
  tenantId: string,
  subscriptionId: string,
  since: string,
) {
  const now = deps.now();
  const from = new Date(since);
  const failingSince = await failureStart(deps, tenantId, subscriptionId);
  const oldest = new Date(now.getTime() - RECOVER_MAX_DAYS * DAY_MS);
  // To the minute: a form's local time (datetime-local) has no seconds.
  // Back to when the endpoint began failing, however long ago: what re-enabling offers.
  const floor = failingSince && new Date(Math.floor(failingSince.getTime() / 60_000) * 60_000);
  if (from > now || from < (floor && floor < oldest ? floor : oldest)) {
    throw new ApiError(
      'requete_invalide',
      `since must not be in the future, nor more than ${RECOVER_MAX_DAYS} days back or before the subscription's failing_since.`,
      {
        issues: [
          {
            location: 'json',
            path: 'since',
            code: 'out_of_range',
            message: `within the last ${RECOVER_MAX_DAYS} days, or since failing_since`,
          },
        ],
      },
    );
  }
  return inTransaction(deps, async (client) => {
    await enabledSubscription(client, tenantId, subscriptionId);
    const { rows } = await client.query<{ id: string; attempts: number }>(
      `UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $4, updated_at = now()
       WHERE tenant_id = $1 AND subscription_id = $2 AND status = 'failed'
         AND (created_at >= $3 OR first_started_at >= $3 OR EXISTS (
           SELECT 1 FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id AND a.started_at >= $3))
       RETURNING id, attempts`,
      [tenantId, subscriptionId, from, now],
    );
    await enqueueJobs(
      client,
      jobs.webhookDeliver,
      rows.map((r) => ({ payload: { delivery_id: r.id, attempt: r.attempts + 1, manual: true } })),
    );
    return { recovered: rows.length };
  });
}

/** When the subscription's endpoint began failing (null when it is not), or 404. */
async function failureStart(deps: Deps, tenantId: string, subscriptionId: string) {
  const row = await deps.db
    .selectFrom('webhook_subscriptions')
    .select('failing_since')
    .where('id', '=', subscriptionId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw subscriptionNotFound(subscriptionId);
  return row.failing_since;
}
