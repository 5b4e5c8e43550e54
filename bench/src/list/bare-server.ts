import http from 'node:http';
import { lookupOf, resourceRoutes, servedResources } from '@erp/contract';
import { createLogger } from '@erp/logger';
import { createMetricsRegistry } from '@erp/telemetry';
import pg from 'pg';
// The portal's own functions, so each layer does exactly what the portal does for it.
import { hashApiKey, parseApiKey } from '../../../apps/portal/src/auth/api-key-format';
import { type KeyRow, keyChecker } from '../../../apps/portal/src/auth/key-coalescer';
import {
  effectiveKeyRights,
  requireRight,
  rightsFromRoles,
} from '../../../apps/portal/src/auth/rights';
import { requestIdFrom } from '../../../apps/portal/src/http/answer-headers';
import { createPortalMetrics } from '../../../apps/portal/src/http/metrics';
import { resourceRights } from '../../../apps/portal/src/resources/operation';
import { encodeCursor, parseReadShape, RAW_TEXT } from '../../../apps/portal/src/resources/read';
import { listRecords } from '../../../apps/portal/src/resources/records-read';
import { createTenantDatabase } from '../../../apps/portal/src/resources/tenant-database';
import { captureListStatement, queriesOf, resourceNamed } from './list-statement';

/**
 * The peer the portal is measured against: `node:http` + a pg pool answering one list
 * request with the statement the portal sends for it (captured from the portal's engine at
 * start-up, named, prepared), in the portal's response format. `BARE_LAYERS` adds the
 * portal's layers one by one:
 * - `auth`: the API key (parse, checksum, HMAC) and `authenticate_api_key_units` (key lookup +
 *   rate limit, one round trip, unnamed as Kysely sends it), the tenant header and the scope;
 * - `rls`: the query through the portal's tenant database (role erp_app, tenant set per session);
 * - `work` (with both): the rest of what the portal does for the request, with its own
 *   functions and no framework: the request id, the key's rights and the operation's right,
 *   the route's query and header schemas (zod, as the contract declares them), the engine
 *   (`listRecords`: the query parsed, the shape, the SQL built and named on each request), the
 *   latency histogram and the access log call (at the bench's level, `warn`). So target 6
 *   against the portal is the framework's cost, and target 6 against target 4 the portal's
 *   own work.
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
const resource = resourceNamed(env('BARE_RESOURCE'));
const registry = lookupOf(servedResources);
const listRoute = resourceRoutes(resource, registry).find((r) => r.kind === 'list')!.route;
/** The route's zod schemas, as much of them as is used here (the bench does not depend on zod). */
interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown };
  shape?: Record<string, unknown>;
}
const querySchema = listRoute.request?.query as unknown as Schema;
const headerSchema = listRoute.request?.headers as unknown as Schema;
const declaredHeaders = Object.keys(headerSchema?.shape ?? {});
const routeTemplate = `/api/v1/${resource.path}`;
const listRights = resourceRights(resource, 'list');
const metrics = layers.has('work')
  ? createPortalMetrics({
      registry: createMetricsRegistry({ processMetrics: true }),
      pools: { main: pool, tenant: tenantDb.pool },
    })
  : undefined;
const logger = layers.has('work') ? createLogger('warn', 'portal', { format: 'json' }) : undefined;
const keyRights = new Map<string, ReadonlySet<string>>();
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
  if (!layers.has('work') && !row.scopes.includes(requiredScope))
    throw new Refusal(403, 'acces_refuse');
  return row;
}

/** The portal's checks beyond the key (`work`): rights, then the route's query and headers. */
function checkAsThePortal(req: http.IncomingMessage, row: KeyRow, query: Record<string, string[]>) {
  const grants = `${row.scopes.join(' ')}\n${row.holder_roles.join(' ')}\n${row.tenant_modules.join(' ')}`;
  let rights = keyRights.get(grants);
  if (!rights) {
    rights = effectiveKeyRights(row.scopes, rightsFromRoles(row.holder_roles, row.tenant_modules));
    keyRights.set(grants, rights);
  }
  const access = { rights, modules: row.tenant_modules };
  for (const right of listRights) requireRight(access, right);
  const flat: Record<string, string | string[]> = {};
  for (const name in query)
    flat[name] = query[name]!.length === 1 ? query[name]![0]! : query[name]!;
  const valid = querySchema.safeParse(flat);
  if (!valid.success) throw new Refusal(400, 'requete_invalide');
  const headers: Record<string, string> = {};
  for (const name of declaredHeaders) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (!headerSchema.safeParse(headers).success) throw new Refusal(400, 'requete_invalide');
  return { access, pageSize: (valid.data as { page_size?: number }).page_size };
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
    if (layers.has('work')) {
      const started = performance.now();
      const header = req.headers['x-request-id'];
      const id = requestIdFrom(typeof header === 'string' ? header : undefined);
      headers['X-Request-Id'] = id;
      const row = await authenticate(req, headers);
      const query = queriesOf(req.url.slice(req.url.indexOf('?')));
      const { access, pageSize } = checkAsThePortal(req, row, query);
      const shape = parseReadShape(resource, registry, query, access);
      const body = await tenantDb.run(row.tenant_id, (client) =>
        listRecords(client, resource, row.tenant_id, query, { pageSize, shape }),
      );
      res.writeHead(200, headers).end(body);
      const seconds = (performance.now() - started) / 1000;
      metrics!.requestDuration.observe(
        { method: 'GET', route: routeTemplate, status: 200 },
        seconds,
      );
      logger!.info('request completed', {
        request_id: id,
        method: 'GET',
        route: routeTemplate,
        path: routeTemplate,
        status: 200,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
      });
      return;
    }
    const tenantId = layers.has('auth')
      ? (await authenticate(req, headers)).tenant_id
      : fixedTenantId;
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
