import { ApiError } from '@erp/contract';
import type { Selectable, WebhookDeliveriesTable } from '@erp/db';
import type { Deps } from '../deps';
import { decodeBeforeCursor, encodeBeforeCursor } from '../http/before-cursor';
import { subscriptionNotFound } from './subscriptions';

const DEFAULT_PAGE_SIZE = 50;
export const DELIVERY_COLUMNS = [
  'id',
  'subscription_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_at',
  'last_response_status',
  'last_error',
  'delivered_at',
  'created_at',
] as const;

export type DeliveryRow = Pick<
  Selectable<WebhookDeliveriesTable>,
  (typeof DELIVERY_COLUMNS)[number]
>;

/** A delivery as the delivery log shows it. */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function deliveryNotFound(id: string): ApiError {
  return new ApiError('introuvable', 'No such delivery of this subscription.', { id });
}

export interface DeliveryLogQuery {
  status?: 'pending' | 'delivered' | 'failed';
  event?: string;
  page_size?: number;
  cursor?: string;
}

/** A subscription's deliveries, newest first, one keyset page at a time (ids are UUIDv7). */
export async function listDeliveries(
  deps: Deps,
  tenantId: string,
  subscriptionId: string,
  query: DeliveryLogQuery,
) {
  const before = query.cursor === undefined ? undefined : decodeBeforeCursor(query.cursor);
  const subscription = await deps.db
    .selectFrom('webhook_subscriptions')
    .select('id')
    .where('id', '=', subscriptionId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!subscription) throw subscriptionNotFound(subscriptionId);
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  const rows = await deps.db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('subscription_id', '=', subscriptionId)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!))
    .$if(query.event !== undefined, (q) => q.where('event_type', '=', query.event!))
    .$if(before !== undefined, (q) => q.where('id', '<', before!))
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  return {
    data: page.map(presentDelivery),
    next_cursor: rows.length > pageSize ? encodeBeforeCursor(page.at(-1)!.id) : null,
  };
}

/**
 * One delivery and every attempt at it, oldest first: the first attempt is kept in the
 * delivery's row (`first_*`, migration 0049), the later ones in the attempt log (a delivery
 * recorded before 0049 has its first attempt in the log too).
 */
export async function getDelivery(
  deps: Deps,
  tenantId: string,
  subscriptionId: string,
  deliveryId: string,
) {
  const row = await deps.db
    .selectFrom('webhook_deliveries')
    .select([
      ...DELIVERY_COLUMNS,
      'first_manual',
      'first_started_at',
      'first_duration_ms',
      'first_response_status',
      'first_response_excerpt',
      'first_error',
    ])
    .where('id', '=', deliveryId)
    .where('subscription_id', '=', subscriptionId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw deliveryNotFound(deliveryId);
  const logged = await deps.db
    .selectFrom('webhook_delivery_attempts')
    .select([
      'attempt',
      'manual',
      'started_at',
      'duration_ms',
      'response_status',
      'response_excerpt',
      'error',
    ])
    .where('tenant_id', '=', tenantId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt')
    .execute();
  const first =
    row.first_started_at === null
      ? []
      : [
          {
            attempt: 1,
            manual: row.first_manual ?? false,
            started_at: row.first_started_at,
            duration_ms: row.first_duration_ms ?? 0,
            response_status: row.first_response_status,
            response_excerpt: row.first_response_excerpt,
            error: row.first_error,
          },
        ];
  return {
    ...presentDelivery(row),
    attempt_log: [...first, ...logged].map((a) => ({
      ...a,
      started_at: new Date(a.started_at).toISOString(),
    })),
  };
}
