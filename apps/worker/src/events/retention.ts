import { EVENT_RETENTION_DAYS } from '@erp/contract';
import type { Logger } from '@erp/logger';
import type pg from 'pg';

/** The retention job's schedule: hourly, off the hour. */
export const EVENT_RETENTION_SCHEDULE = '41 * * * *';
/** Events deleted per statement: short transactions, whatever the backlog. */
const BATCH = 5_000;

/**
 * One batch: events recorded before the cutoff (the id bound lets the primary key find them,
 * ids being time-ordered), numbered (or test deliveries, never numbered), and needed by no
 * pending delivery (a retry in flight, a replay asked for). Their delivery logs go with them
 * (ON DELETE CASCADE). Each tenant's `purged_through` moves to the highest sequence deleted:
 * the feed starts after it, and refuses a cursor before it (the events after it are gone).
 */
const DELETE_EXPIRED = {
  name: 'events_retention',
  text: `
  WITH doomed AS (
    SELECT e.id FROM events e
    WHERE e.id < (lpad(to_hex(floor(extract(epoch FROM $1::timestamptz) * 1000)::bigint), 12, '0') || '00000000000000000000')::uuid
      AND e.created_at < $1::timestamptz
      AND (e.sequence IS NOT NULL OR e.type = 'webhook.test')
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
    ORDER BY e.id
    LIMIT $2
  ),
  gone AS (DELETE FROM events e USING doomed WHERE e.id = doomed.id RETURNING e.tenant_id, e.sequence),
  marked AS (
    UPDATE event_sequences s SET purged_through = greatest(s.purged_through, m.top)
    FROM (SELECT tenant_id, max(sequence) AS top FROM gone WHERE sequence IS NOT NULL GROUP BY tenant_id) m
    WHERE s.tenant_id = m.tenant_id
  )
  SELECT count(*)::int AS deleted FROM gone`,
};

/** Deletes the events older than the retention (SPEC §12: at least 30 days), batch by batch. */
export async function deleteExpiredEvents(deps: {
  pool: pg.Pool;
  logger: Logger;
  now: () => Date;
  retentionDays?: number;
}): Promise<void> {
  const days = deps.retentionDays ?? EVENT_RETENTION_DAYS;
  const cutoff = new Date(deps.now().getTime() - days * 86_400_000);
  let total = 0;
  for (;;) {
    const { rows } = await deps.pool.query<{ deleted: number }>({
      ...DELETE_EXPIRED,
      values: [cutoff, BATCH],
    });
    total += rows[0]!.deleted;
    if (rows[0]!.deleted < BATCH) break;
  }
  if (total > 0) deps.logger.info('expired events deleted', { count: total, before: cutoff });
}
