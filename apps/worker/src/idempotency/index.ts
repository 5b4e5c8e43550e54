import { jobs } from '@erp/contract';
import type { Logger } from '@erp/logger';
import type { ParsedCronItem } from 'graphile-worker';
import type pg from 'pg';
import { cronItemsFor, type JobHandlers } from '../runtime/jobs';

/** Hourly, off the hour and off the events' retention (minute 41). */
export const IDEMPOTENCY_PURGE_SCHEDULE = '17 * * * *';
/** How long a stored answer is replayed (SPEC §16); the portal reclaims an older key too. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** Rows deleted per statement: short transactions, whatever the backlog. */
const BATCH = 5_000;

/**
 * One batch of the keys older than the cutoff, every tenant's (the worker's session passes
 * the tenant policy, migration 0029), found by the `created_at` index. A key in flight (its
 * transaction not committed) is invisible here and is left to the next run.
 */
const PURGE = {
  name: 'idempotency_purge',
  text: `
  WITH doomed AS (
    SELECT tenant_id, principal, key FROM idempotency_keys
    WHERE created_at < $1::timestamptz ORDER BY created_at LIMIT $2
  )
  DELETE FROM idempotency_keys k USING doomed d
  WHERE k.tenant_id = d.tenant_id AND k.principal = d.principal AND k.key = d.key`,
};

/** Deletes the Idempotency-Key rows older than 24 h, batch by batch. */
export async function purgeIdempotencyKeys(deps: {
  pool: pg.Pool;
  logger: Logger;
  now: () => Date;
}): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - IDEMPOTENCY_TTL_MS);
  let total = 0;
  for (;;) {
    const { rowCount } = await deps.pool.query({ ...PURGE, values: [cutoff, BATCH] });
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) break;
  }
  if (total > 0) deps.logger.info('expired idempotency keys deleted', { count: total });
  return total;
}

export function idempotencyHandlers(deps: {
  pool: pg.Pool;
  logger: Logger;
  now: () => Date;
}): Pick<JobHandlers, 'idempotencyPurge'> {
  return {
    idempotencyPurge: async () => {
      await purgeIdempotencyKeys(deps);
    },
  };
}

/** Hourly: the purge (one pending at a time, no catching up on missed hours). */
export function idempotencyCronItems(): ParsedCronItem[] {
  return cronItemsFor([{ job: jobs.idempotencyPurge, match: IDEMPOTENCY_PURGE_SCHEDULE }]);
}
