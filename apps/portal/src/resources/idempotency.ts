import { createHash } from 'node:crypto';
import { ApiError } from '@erp/contract';
import type pg from 'pg';
import type { Caller } from '../http/context';

export interface StoredResponse {
  status: number;
  etag: string | null;
  body: string;
}

/** What identifies a request for Idempotency-Key purposes: method, path and body. */
export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest();
}

/**
 * Whose keys a request's keys are (SPEC §16): a session's user, or one API key (and its
 * holder). A user's sessions share their keys (a retry after a token refresh or a new login
 * still replays); a key never shares them with its holder's sessions or other keys.
 */
export function idempotencyPrincipal(caller: Pick<Caller, 'kind' | 'userId' | 'credentialId'>) {
  return caller.kind === 'api_key'
    ? `api_key:${caller.credentialId}:${caller.userId}`
    : `user:${caller.userId}`;
}

/**
 * Runs `work` once per (tenant, principal, key) within 24 h, inside the caller's transaction:
 * the key row is inserted first, so a concurrent duplicate waits on it and then replays the
 * stored response; a failed attempt rolls its key back with everything else. Another principal
 * sending the same key has a key of its own. The caller checks the rights again before it
 * hands a replay out (the routes' middleware, the batch's plan and `checkReplay`).
 */
export async function runIdempotent(
  client: pg.PoolClient,
  tenantId: string,
  principal: string,
  key: string,
  fingerprint: Buffer,
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const claimed = await client.query(
    `INSERT INTO idempotency_keys AS k (tenant_id, principal, key, fingerprint) VALUES ($1, $4, $2, $3)
     ON CONFLICT (tenant_id, principal, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, response_status = NULL, response_etag = NULL, response_body = NULL, created_at = now()
       WHERE k.created_at < now() - interval '24 hours'
     RETURNING 1`,
    [tenantId, key, fingerprint, principal],
  );
  if (claimed.rowCount === 1) {
    const response = await work();
    await client.query(
      'UPDATE idempotency_keys SET response_status = $3, response_etag = $4, response_body = $5 WHERE tenant_id = $1 AND key = $2 AND principal = $6',
      [tenantId, key, response.status, response.etag, response.body, principal],
    );
    return { ...response, replayed: false };
  }
  const { rows } = await client.query<{
    fingerprint: Buffer;
    response_status: number | null;
    response_etag: string | null;
    response_body: string | null;
  }>(
    'SELECT fingerprint, response_status, response_etag, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND principal = $3',
    [tenantId, key, principal],
  );
  const stored = rows[0];
  if (!stored?.fingerprint.equals(fingerprint)) {
    throw new ApiError('conflit', 'This Idempotency-Key was used with another request.', {
      reason: 'idempotency_key_reused',
    });
  }
  if (stored.response_status === null || stored.response_body === null) {
    throw new ApiError('conflit', 'A request with this Idempotency-Key is in progress.', {
      reason: 'in_progress',
    });
  }
  return {
    status: stored.response_status,
    etag: stored.response_etag,
    body: stored.response_body,
    replayed: true,
  };
}
