import { ApiError } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';

const HOUR_MS = 3_600_000;

/**
 * Takes one unit of an hourly bucket shared by every landing instance (`rate_limit_take`), or
 * throws 429 `limite_depassee` with `Retry-After` in seconds.
 */
export async function takeHourlyUnit(
  db: Kysely<Database>,
  bucket: string,
  limit: number,
): Promise<void> {
  const { rows } = await sql<{ allowed: boolean; reset_ms: string }>`
    SELECT allowed, reset_ms FROM rate_limit_take(ARRAY[${bucket}]::text[], ARRAY[${limit}]::int[], ${HOUR_MS}::bigint)
  `.execute(db);
  const verdict = rows[0];
  if (verdict?.allowed) return;
  // reset_ms is the database's clock (Unix ms) of the next free unit.
  const retryAfter = Math.max(1, Math.ceil((Number(verdict?.reset_ms ?? 0) - Date.now()) / 1000));
  throw new ApiError(
    'limite_depassee',
    `Too many requests from this address; retry in ${retryAfter} s.`,
    { limit, retry_after: retryAfter },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}
