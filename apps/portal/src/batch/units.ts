import { ApiError } from '@erp/contract';
import type { Context } from 'hono';
import type { Deps } from '../deps';
import type { AppEnv, Caller } from '../http/context';

interface UnitsRow {
  granted: boolean;
  rate_limit: number;
  remaining: number;
  reset_ms: string | null;
}

/**
 * A session's N − 1 further units, all or none, from the buckets its authentication took one
 * from (`authenticate_session_units`: the user's in the tenant, and the tenant's ceiling).
 */
const SESSION_TAKE_UNITS = `SELECT u.granted, $2::int AS rate_limit, u.remaining, u.reset_ms
  FROM tenants t
  CROSS JOIN LATERAL rate_limit_take_all(
    ARRAY['session:' || $1::text || ':' || t.id::text, 'tenant:' || t.id::text],
    ARRAY[$2::int, t.rate_limit_per_minute], 60000, $3::int) AS u
 WHERE t.id = $4`;

/**
 * A batch of N operations counts as N requests of its caller (SPEC §12, §16): authentication
 * took one unit, this takes the other N − 1 from the same buckets (an API key's and its
 * tenant's; a session's in the tenant and the tenant's), all or none, so a refused batch (429,
 * before anything runs) spends nothing more. The response's X-RateLimit-* headers then say
 * what is left after the batch.
 */
export async function takeBatchUnits(
  deps: Deps,
  c: Context<AppEnv>,
  caller: Caller,
  operations: number,
): Promise<void> {
  const units = operations - 1;
  if (units <= 0 || !caller.tenant) return;
  const { rows } = await deps.pool.query<UnitsRow>(
    caller.kind === 'api_key'
      ? {
          name: 'api_key_take_units',
          text: 'SELECT * FROM api_key_take_units($1, $2, $3)',
          values: [caller.credentialId, deps.env.API_KEY_RATE_LIMIT_PER_MINUTE, units],
        }
      : {
          name: 'session_take_units',
          text: SESSION_TAKE_UNITS,
          values: [caller.userId, deps.env.SESSION_RATE_LIMIT_PER_MINUTE, units, caller.tenant.id],
        },
  );
  const row = rows[0];
  // The key was just authenticated; gone since (deleted with its tenant): as authentication says.
  if (!row) throw new ApiError('cle_api_invalide', 'The API key is unknown, revoked or expired.');
  c.header('X-RateLimit-Remaining', String(row.remaining));
  if (row.reset_ms !== null)
    c.header('X-RateLimit-Reset', String(Math.ceil(Number(row.reset_ms) / 1000)));
  if (row.granted) return;
  // More operations than the key may make in a minute: no wait makes room for this batch.
  if (row.reset_ms === null || operations > row.rate_limit) {
    throw new ApiError(
      'limite_depassee',
      `This batch counts ${operations} requests, more than this ${caller.kind === 'api_key' ? 'API key' : 'session'} may make in a minute (${row.rate_limit}).`,
      { reason: 'batch_over_limit', operations, limit: row.rate_limit },
    );
  }
  const retryAfter = Math.max(1, Math.ceil((Number(row.reset_ms) - Date.now()) / 1000));
  throw new ApiError(
    'limite_depassee',
    `Rate limit exceeded: this batch counts ${operations} requests.`,
    { retry_after: retryAfter, operations },
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}
