import { ApiError } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';
import { throttleKey } from '@erp/http';

/** The address key of every per-address throttle, from @erp/http (password-links.ts imports it here). */
export { throttleKey };

const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/**
 * Failed logins allowed per sliding window (SPEC §4): per (e-mail, client address) pair, which
 * stops guessing one account, and per client address across e-mails, which stops spraying.
 * Nothing per e-mail alone, so nobody can lock an account from elsewhere.
 */
export const LOGIN_LIMITS = { perPair: 10, perAddress: 100 };
/** How long an attempt waits for attempts in flight to free a place before it is refused. */
const IN_FLIGHT_WAIT_MS = 10_000;

/**
 * Reserves a place for one login attempt before its password is verified, or refuses it with
 * 429 `limite_depassee` and `Retry-After` (nothing counted, no argon2 spent). Returns the
 * reservation, which `endLoginAttempt` settles. See migration 2026-11-24-0013 for why the
 * place is reserved rather than counted after the fact.
 */
export async function beginLoginAttempt(
  db: Kysely<Database>,
  email: string,
  clientAddress: string,
): Promise<string> {
  const key = throttleKey(clientAddress);
  let retryAfterMs = 0;
  let waitedMs = 0;
  for (let pauseMs = 25; ; pauseMs = Math.min(pauseMs * 2, 500)) {
    const { rows } = await sql<{ attempt_id: string | null; retry_after_ms: string }>`
      SELECT * FROM login_attempt_begin(${email}, ${key},
        ${LOGIN_LIMITS.perPair}::int, ${LOGIN_LIMITS.perAddress}::int, ${LOGIN_WINDOW_MS}::bigint)
    `.execute(db);
    const row = rows[0]!;
    if (row.attempt_id !== null) return row.attempt_id;
    retryAfterMs = Number(row.retry_after_ms);
    // A place that frees within a second is held by attempts in flight (a script logging in
    // many times at once): wait for them to settle rather than refuse a correct password.
    // They settle within an argon2 verification, seconds at worst on a loaded machine.
    if (retryAfterMs > 1000 || waitedMs >= IN_FLIGHT_WAIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    waitedMs += pauseMs;
  }
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  throw new ApiError(
    'limite_depassee',
    'Too many failed login attempts; try again later.',
    { retry_after: retryAfter },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/** Settles a reservation: a failure keeps counting; a success clears its pair's failures. */
export async function endLoginAttempt(
  db: Kysely<Database>,
  attemptId: string,
  success: boolean,
): Promise<void> {
  await sql`SELECT login_attempt_end(${attemptId}::bigint, ${success})`.execute(db);
}
