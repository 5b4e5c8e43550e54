import { ApiError } from '@erp/contract';
import type pg from 'pg';

/** At most this many exports of one tenant run at once, across every portal instance (SPEC §16). */
export const EXPORTS_PER_TENANT = 2;

/** Seconds a refused export is told to wait: exports last a while, retrying at once is no use. */
const RETRY_AFTER_SECONDS = 10;

/** The advisory-lock class of export slot 0 (slot i is this + i); the tenant's hash is the object. */
const SLOT_CLASS = 0x45585000;

/**
 * One statement trying each slot in turn (`CASE` evaluates its branches in order, so a slot is
 * taken only when the ones before it are held): the number of the slot taken, 0 when all are.
 */
const TAKE_SLOT = `SELECT CASE ${Array.from(
  { length: EXPORTS_PER_TENANT },
  (_, i) => `WHEN pg_try_advisory_xact_lock(${SLOT_CLASS + i}, hashtext($1)) THEN ${i + 1}`,
).join(' ')} ELSE 0 END AS slot`;

/**
 * Takes one of the tenant's export slots in the export's own transaction: a transaction-level
 * advisory lock, held by the connection that streams the export and let go with it however
 * the export ends (rollback, or the connection dropped midway), on every portal instance at
 * once since the locks are PostgreSQL's. Refused: 429 `limite_depassee` with `Retry-After`.
 */
export async function takeExportSlot(client: pg.ClientBase, tenantId: string): Promise<void> {
  const { rows } = await client.query<{ slot: number }>(TAKE_SLOT, [tenantId]);
  if (rows[0]?.slot) return;
  throw new ApiError(
    'limite_depassee',
    `At most ${EXPORTS_PER_TENANT} exports of a tenant run at once.`,
    { retry_after: RETRY_AFTER_SECONDS, limit: EXPORTS_PER_TENANT, reason: 'concurrent_exports' },
    { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
  );
}
