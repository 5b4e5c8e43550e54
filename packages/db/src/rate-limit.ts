import { type Kysely, sql } from 'kysely';
import type { Database } from './database.gen';

/** One bucket of the shared rate limiter: its key and how many units a window holds. */
export interface RateLimitBucket {
  key: string;
  limit: number;
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Takes one unit from every bucket or from none (`rate_limit_take`, the one rate limiter every
 * instance of every app shares), over a sliding window of `windowMs`. A refusal says when a
 * unit comes back, in whole seconds (≥ 1), for `Retry-After`.
 */
export async function takeRateLimitUnit(
  db: Kysely<Database>,
  buckets: readonly RateLimitBucket[],
  windowMs: number,
): Promise<RateLimitVerdict> {
  const { rows } = await sql<{ allowed: boolean; reset_ms: string }>`
    SELECT allowed, reset_ms FROM rate_limit_take(
      ${buckets.map((b) => b.key)}::text[], ${buckets.map((b) => b.limit)}::int[], ${windowMs}::bigint)
  `.execute(db);
  const verdict = rows[0];
  if (verdict?.allowed) return { allowed: true };
  // reset_ms is the database's clock (Unix ms) of the next free unit.
  const waitMs = Number(verdict?.reset_ms ?? 0) - Date.now();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
