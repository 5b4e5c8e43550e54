import http from 'node:http';
import pg from 'pg';
// The portal's own functions, so each layer does exactly what the portal does for it.
import { hashApiKey, parseApiKey } from '../../../apps/portal/src/auth/api-key-format';
import { keyChecker } from '../../../apps/portal/src/auth/key-coalescer';
import { encodeCursor, RAW_TEXT } from '../../../apps/portal/src/resources/read';
import { createTenantDatabase } from '../../../apps/portal/src/resources/tenant-database';
import { captureListStatement, resourceNamed } from './list-statement';

/**
 * The peer the portal is measured against: `node:http` + a pg pool answering one list
 * request with the statement the portal sends for it (captured from the portal's engine at
 * start-up, named, prepared), in the portal's response format. `BARE_LAYERS` adds the
 * portal's layers one by one:
 * - `auth`: the API key (parse, checksum, HMAC) and `authenticate_api_key_units` (key lookup +
 *   rate limit, one round trip, unnamed as Kysely sends it), the tenant header and the scope;
 * - `rls`: the query through the portal's tenant database (role erp_app, tenant set per session).
 * Without `auth` the tenant is fixed; without `rls` the query runs as the connecting
 * superuser, which row-level security does not apply to.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`bare-server: ${name} is required`);
  return value;
};
const layers = new Set(env('BARE_LAYERS').split(',').filter(Boolean));
const port = Number(env('BARE_PORT'));
const path = env('BARE_PATH'); // e.g. /sales-orders?status=eq.confirme&page_size=50
const fixedTenantId = env('BARE_TENANT_ID');
const hashSecret = Buffer.from(layers.has('auth') ? env('BARE_API_KEY_HASH_SECRET') : '');
const defaultRateLimit = Number(process.env.BARE_DEFAULT_RATE_LIMIT ?? 600);
const requiredScope = process.env.BARE_SCOPE ?? 'sales:read';

const statement = await captureListStatement(
  resourceNamed(env('BARE_RESOURCE')),
  fixedTenantId,
  new URL(path, 'http://x').search,
);
// Same pool as the portal's openDatabase(): node-pg defaults, 10 connections.
const pool = new pg.Pool({
  connectionString: env('BARE_DATABASE_URL'),
  max: Number(process.env.BARE_POOL_SIZE ?? 10),
  application_name: `bench-bare-${[...layers].join('+') || 'none'}`,
});
pool.on('error', () => {});
const tenantDb = createTenantDatabase({
  url: env('BARE_DATABASE_URL'),
  max: Number(process.env.BARE_POOL_SIZE ?? 10),
});

const BEARER = /^Bearer +(\S+) *$/i;
// The portal's own key check: coalesced per key, several units per call.
const checkKey = keyChecker(pool, defaultRateLimit);

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** The portal's key check, minus Hono: returns the key's tenant and the rate-limit headers. */
async function authenticate(req: http.IncomingMessage, headers: Record<string, string>) {
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token) throw new Refusal(401, 'non_authentifie');
  if (req.headers.origin !== undefined) throw new Refusal(403, 'origine_interdite');
  const parts = parseApiKey(token);
  if (!parts) throw new Refusal(401, 'cle_api_invalide');
  const hash = hashApiKey(parts.key, hashSecret);
  const check = await checkKey(parts.prefix, hash);
  const row = check.row;
  if (!row) throw new Refusal(401, 'cle_api_invalide');
  headers['X-RateLimit-Limit'] = String(row.rate_limit);
  headers['X-RateLimit-Remaining'] = String(check.remaining);
  headers['X-RateLimit-Reset'] = String(Math.ceil(check.resetMs / 1000));
  if (!check.allowed) throw new Refusal(429, 'limite_depassee');
  const tenant = String(req.headers['x-tenant-id'] ?? req.headers['x-tenant'] ?? '').trim();
  if (tenant !== row.tenant_id && tenant !== row.tenant_slug)
    throw new Refusal(403, 'tenant_invalide');
  if (!row.scopes.includes(requiredScope)) throw new Refusal(403, 'acces_refuse');
  return row.tenant_id;
}

/** One page, as the portal's listRecords builds its body from the same rows. */
async function listPage(tenantId: string): Promise<string> {
  const values = [tenantId, ...statement.values.slice(1)];
  const query = {
    name: statement.name,
    text: statement.text,
    values,
    rowMode: 'array' as const,
    types: RAW_TEXT,
  };
  const { rows } = layers.has('rls')
    ? await tenantDb.run(tenantId, (client) => client.query<Array<string | null>>(query))
    : await pool.query<Array<string | null>>(query);
  const page = rows.slice(0, statement.pageSize);
  const last = page[page.length - 1];
  const next =
    rows.length > statement.pageSize && last
      ? encodeCursor(
          statement.order,
          statement.cursorAt.map((at) => last[at]!),
        )
      : null;
  return `{"data":[${page.map(statement.encode).join(',')}],"next_cursor":${next ? `"${next}"` : 'null'}}`;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
  if (req.url === '/health') {
    res.writeHead(200, headers).end('{"status":"ok"}');
    return;
  }
  if (req.method !== 'GET' || req.url !== path) {
    res.writeHead(404, headers).end('{"code":"introuvable"}');
    return;
  }
  try {
    const tenantId = layers.has('auth') ? await authenticate(req, headers) : fixedTenantId;
    res.writeHead(200, headers).end(await listPage(tenantId));
  } catch (error) {
    if (error instanceof Refusal) {
      res.writeHead(error.status, headers).end(`{"code":"${error.code}"}`);
      return;
    }
    process.stderr.write(`bare-server: ${error instanceof Error ? error.message : error}\n`);
    res.writeHead(500, headers).end('{"code":"erreur_interne"}');
  }
}

const server = http.createServer((req, res) => void answer(req, res));
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().finally(() => process.exit(0))));
