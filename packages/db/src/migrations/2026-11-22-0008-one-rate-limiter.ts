import { type Kysely, sql } from 'kysely';

/**
 * One implementation of the rate limiter: `rate_limit_take` (login throttling) becomes one
 * unit of `rate_limit_take_units` (0007) instead of 0006's copy of the same ring logic, and
 * `authenticate_api_key` (0003), replaced by `authenticate_api_key_units`, is dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION authenticate_api_key(text, bytea, integer);
    CREATE OR REPLACE FUNCTION rate_limit_take(p_keys text[], p_limits integer[], p_window_ms bigint)
    RETURNS TABLE (allowed boolean, remaining integer, reset_ms bigint)
    LANGUAGE sql AS $fn$
      SELECT u.granted = 1, u.remaining, u.reset_ms FROM rate_limit_take_units(p_keys, p_limits, p_window_ms, 1) AS u
    $fn$;
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('2026-11-22-0008 cannot be reverted alone: recreate the database');
}
