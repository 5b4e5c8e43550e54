import { ApiError } from '@erp/contract';
import { type Database, type Kysely, takeRateLimitUnit } from '@erp/db';

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
  const verdict = await takeRateLimitUnit(db, [{ key: bucket, limit }], HOUR_MS);
  if (verdict.allowed) return;
  const retryAfter = verdict.retryAfterSeconds;
  throw new ApiError(
    'limite_depassee',
    `Too many requests from this address; retry in ${retryAfter} s.`,
    { limit, retry_after: retryAfter },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}
