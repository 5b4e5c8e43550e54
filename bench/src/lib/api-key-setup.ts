import pg from 'pg';

/** The benchmark's API key and the ids its buckets are named after. */
export interface BenchKey {
  key: string;
  keyId: string;
  tenantId: string;
  prefix: string;
}

// High enough that no round is ever throttled; the rate limiter does the same work whatever
// the limit (it compares a running total), so raising it does not make the measured path cheaper.
export const UNTHROTTLED_LIMIT = 100_000_000;

/** Whose key: an admin of the tenant (slug), by e-mail and password. */
export interface KeyHolder {
  email: string;
  password: string;
  tenant: string;
}

/**
 * Logs in as a tenant admin and creates a key (`sales:read` unless told) through the public
 * API, like a customer; then lifts the key's and the tenant's rate limits by SQL (see
 * UNTHROTTLED_LIMIT).
 */
export async function createBenchKey(
  baseUrl: string,
  databaseUrl: string,
  holder: KeyHolder,
  scopes: string[] = ['sales:read'],
): Promise<BenchKey> {
  const login = await postJson<{ access_token: string }>(`${baseUrl}/api/v1/auth/login`, {
    email: holder.email,
    password: holder.password,
  });
  const created = await postJson<{ id: string; key: string; prefix: string }>(
    `${baseUrl}/api/v1/settings/api-keys`,
    {
      name: 'bench',
      scopes,
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    },
    { authorization: `Bearer ${login.access_token}`, 'x-tenant': holder.tenant },
  );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tenant_id: string }>(
      'UPDATE api_keys SET rate_limit_per_minute = $1 WHERE id = $2 RETURNING tenant_id',
      [UNTHROTTLED_LIMIT, created.id],
    );
    const tenantId = rows[0]!.tenant_id;
    await client.query('UPDATE tenants SET rate_limit_per_minute = $1 WHERE id = $2', [
      UNTHROTTLED_LIMIT,
      tenantId,
    ]);
    return { key: created.key, keyId: created.id, tenantId, prefix: created.prefix };
  } finally {
    await client.end();
  }
}

/** POSTs JSON and returns the parsed answer; the caller names the shape its status promises. */
export async function postJson<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${new URL(url).pathname}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
