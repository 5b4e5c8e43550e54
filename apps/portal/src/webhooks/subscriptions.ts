import {
  ApiError,
  type EventName,
  WEBHOOK_VERSION,
  type WebhookDisabledReason,
} from '@erp/contract';
import {
  type Database,
  type Kysely,
  type Selectable,
  sql,
  uuidv7,
  type WebhookSubscriptionsTable,
} from '@erp/db';
import { generateSigningSecret } from '@erp/webhooks';
import { type AuditSource, recordAudit } from '../audit';
import type { Deps } from '../deps';
import { checkSubscriberUrl } from './url-check';

const SUBSCRIPTION_COLUMNS = [
  'id',
  'url',
  'events',
  'description',
  'enabled',
  'disabled_reason',
  'webhook_version',
  'previous_secret_expires_at',
  'disabled_at',
  'failing_since',
  'consecutive_failures',
  'created_at',
  'updated_at',
] as const;

type SubscriptionRow = Pick<
  Selectable<WebhookSubscriptionsTable>,
  (typeof SUBSCRIPTION_COLUMNS)[number]
>;

export interface SubscriptionInput {
  url: string;
  events: string[];
  description?: string;
  enabled?: boolean;
}

/** A subscription as the API shows it: never a secret, sealed or not. */
export function presentSubscription(row: SubscriptionRow) {
  return {
    id: row.id,
    url: row.url,
    // Written only after validation against the catalogue.
    events: row.events as EventName[],
    description: row.description,
    enabled: row.enabled,
    // Written only by the worker, from the contract's reasons.
    disabled_reason: row.disabled_reason as WebhookDisabledReason | null,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    failing_since: row.failing_since?.toISOString() ?? null,
    consecutive_failures: row.consecutive_failures,
    webhook_version: row.webhook_version,
    previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The 404 of every route under a subscription (another tenant's included). */
export function subscriptionNotFound(id: string): ApiError {
  return new ApiError('introuvable', 'No such webhook subscription.', { id });
}

/** Subscribes a URL; the signing secret is in the result and, sealed, in the database only. */
export async function createSubscription(
  deps: Deps,
  tenantId: string,
  input: SubscriptionInput,
  source: AuditSource,
) {
  await checkSubscriberUrl(deps, input.url);
  const secret = generateSigningSecret();
  // The id is the secret's associated data, so it is drawn before the row is written.
  const id = uuidv7();
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('webhook_subscriptions')
      .values({
        id,
        tenant_id: tenantId,
        url: input.url,
        events: input.events,
        description: input.description ?? '',
        enabled: input.enabled ?? true,
        webhook_version: WEBHOOK_VERSION,
        secret_sealed: deps.secretBox.seal(secret, id),
      })
      .returning(SUBSCRIPTION_COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, source, {
      tenantId,
      action: 'webhook.created',
      target: { type: 'webhook_subscription', id },
      details: { url: created.url, events: created.events, enabled: created.enabled },
    });
    return created;
  });
  return { ...presentSubscription(row), secret };
}

/** The tenant's subscriptions, newest first (ids are UUIDv7). */
export async function listSubscriptions(deps: Deps, tenantId: string) {
  const rows = await deps.db
    .selectFrom('webhook_subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(presentSubscription);
}

/** One subscription of the tenant. */
export async function getSubscription(deps: Deps, tenantId: string, id: string) {
  const row = await deps.db
    .selectFrom('webhook_subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw subscriptionNotFound(id);
  return presentSubscription(row);
}

/**
 * Changes URL, events, description or state; setting `enabled` either way clears
 * `disabled_reason` and `disabled_at`.
 */
export async function updateSubscription(
  deps: Deps,
  tenantId: string,
  id: string,
  input: Partial<SubscriptionInput>,
  source: AuditSource,
) {
  if (input.url !== undefined) await checkSubscriberUrl(deps, input.url);
  return deps.db.transaction().execute(async (trx) => {
    const updated = await changeSubscription(trx, tenantId, id, input);
    // The fields sent, as sent: none of them is a secret.
    await recordAudit(trx, source, {
      tenantId,
      action: 'webhook.updated',
      target: { type: 'webhook_subscription', id },
      details: { ...input },
    });
    return updated;
  });
}

async function changeSubscription(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
  input: Partial<SubscriptionInput>,
) {
  const row = await db
    .updateTable('webhook_subscriptions')
    .set({
      url: input.url,
      events: input.events,
      description: input.description,
      enabled: input.enabled,
      ...(input.enabled === undefined ? {} : { disabled_reason: null, disabled_at: null }),
      // Re-enabling restarts the count of failed deliveries, so the endpoint gets the grace of a
      // new one; failing_since stays until an attempt succeeds: it is where a recover starts.
      ...(input.enabled === true ? { consecutive_failures: 0 } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .returning(SUBSCRIPTION_COLUMNS)
    .executeTakeFirst();
  if (!row) throw subscriptionNotFound(id);
  return presentSubscription(row);
}

/** Deletes a subscription with its delivery log. */
export async function deleteSubscription(
  deps: Deps,
  tenantId: string,
  id: string,
  source: AuditSource,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('webhook_subscriptions')
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .returning(['id', 'url'])
      .executeTakeFirst();
    if (!deleted) throw subscriptionNotFound(id);
    await recordAudit(trx, source, {
      tenantId,
      action: 'webhook.deleted',
      target: { type: 'webhook_subscription', id },
      details: { url: deleted.url },
    });
  });
}
