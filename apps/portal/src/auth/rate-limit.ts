import { type Database, type Kysely, sql } from '@erp/db';

export interface RateLimitVerdict {
  allowed: boolean;
  remaining: number;
  /** Unix ms when a unit next comes back. */
  resetMs: number;
  /** Whole seconds to wait (≥ 1) when refused. */
  retryAfter: number;
}

/** Takes one unit from every bucket or none (shared by every instance, see the migration). */
export async function takeRateLimit(
  db: Kysely<Database>,
  keys: string[],
  limits: number[],
  windowMs: number,
): Promise<RateLimitVerdict> {
  const { rows } = await sql<{ allowed: boolean; remaining: number; reset_ms: string }>`
    SELECT * FROM rate_limit_take(${keys}::text[], ${limits}::int[], ${windowMs}::bigint)
  `.execute(db);
  const row = rows[0]!;
  const resetMs = Number(row.reset_ms);
  return {
    allowed: row.allowed,
    remaining: row.remaining,
    resetMs,
    retryAfter: Math.max(1, Math.ceil((resetMs - Date.now()) / 1000)),
  };
}
