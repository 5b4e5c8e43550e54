import { createHash } from 'node:crypto';
import { ApiError } from '@erp/contract';
import type pg from 'pg';

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
 * Runs `work` once per (tenant, key) within 24 h, inside the caller's transaction: the key
 * row is inserted first, so a concurrent duplicate waits on it and then replays the stored
 * response; a failed attempt rolls its key back with everything else.
 */
export async function runIdempotent(
  client: pg.PoolClient,
  tenantId: string,
  key: string,
  fingerprint: Buffer,
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const claimed = await client.query(
    `INSERT INTO idempotency_keys AS k (tenant_id, key, fingerprint) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, response_status = NULL, response_etag = NULL, response_body = NULL, created_at = now()
       WHERE k.created_at < now() - interval '24 hours'
     RETURNING 1`,
    [tenantId, key, fingerprint],
  );
  if (claimed.rowCount === 1) {
    const response = await work();
    await client.query(
      'UPDATE idempotency_keys SET response_status = $3, response_etag = $4, response_body = $5 WHERE tenant_id = $1 AND key = $2',
      [tenantId, key, response.status, response.etag, response.body],
    );
    return { ...response, replayed: false };
  }
  const { rows } = await client.query<{
    fingerprint: Buffer;
    response_status: number | null;
    response_etag: string | null;
    response_body: string | null;
  }>(
    'SELECT fingerprint, response_status, response_etag, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
    [tenantId, key],
  );
  const stored = rows[0];
  if (!stored || !stored.fingerprint.equals(fingerprint)) {
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
