import {
  ApiError,
  lookupOf,
  RESOURCE_SECURITY,
  type Resource,
  type ResourceLookup,
  type ResourceOperation,
  type ResourceRouteKind,
  resourceOperations,
  resourceRoutes,
} from '@erp/contract';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type pg from 'pg';
import { requireRight, securityMiddleware } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf, tenantOf } from '../http/context';
import { exportRecords } from './export';
import { requestFingerprint, runIdempotent, type StoredResponse } from './idempotency';
import { parseReadShape } from './read-shape';
import { getRecord, listRecords } from './records-read';
import {
  insertRecord,
  patchRecord,
  removeRecord,
  transitionRecord,
  type WrittenRecord,
} from './records-write';
import { validateLazily } from './validation';

export { mapWriteError } from './pg-errors';
export { insertRecord, transitionRecord } from './records-write';
export { createTenantDatabase, type TenantDatabase } from './tenant-database';

type Ctx = Context<AppEnv>;
type Handler = (c: Ctx) => Promise<Response>;

/**
 * Implements every operation of every resource with the generic engine. Routes are plain Hono
 * routes: authentication from the contract's `RESOURCE_SECURITY`, the right, then validation
 * against the contract route, whose zod schemas are built on its first request. Nothing is
 * built per operation at start (at 1000+ operations that was seconds and ~100 MB).
 */
export function registerResourceRoutes(
  app: Hono<AppEnv>,
  deps: Deps,
  resources: readonly Resource[],
): void {
  const authenticated = securityMiddleware(RESOURCE_SECURITY, deps)!;
  const registry = lookupOf(resources);
  for (const resource of resources) {
    for (const operation of resourceOperations(resource)) {
      const route = () =>
        resourceRoutes(resource, registry).find(
          (r) => r.kind === operation.kind && r.action === operation.action,
        )!.route;
      app.on(
        operation.method.toUpperCase(),
        operation.path.replace(/\{(\w+)\}/g, ':$1'),
        authenticated,
        // Rights are checked before the body is validated: a caller without the right learns nothing.
        requireResourceRight(resource, operation.kind),
        validateLazily(route),
        handlerFor(deps, registry, { ...operation, resource }),
      );
    }
  }
}

/** `<module>:read` for list, export and get, `<module>:write` for everything else. */
function requireResourceRight(
  resource: Resource,
  kind: ResourceRouteKind,
): MiddlewareHandler<AppEnv> {
  const reads = kind === 'list' || kind === 'export' || kind === 'get';
  const right = `${resource.module}:${reads ? 'read' : 'write'}`;
  return async function checkResourceRight(c, next) {
    const caller = callerOf(c);
    requireRight({ rights: caller.rights, modules: tenantOf(caller).modules }, right);
    await next();
  };
}

function handlerFor(
  deps: Deps,
  registry: ResourceLookup,
  { kind, resource, action }: ResourceOperation & { resource: Resource },
): Handler {
  /** Runs single statements for the caller's tenant (rights were checked by the route's middleware). */
  const inTenant = <T>(c: Ctx, work: (client: pg.PoolClient) => Promise<T>) =>
    deps.tenantDb.run(tenantOf(callerOf(c)).id, work);
  const id = (c: Ctx) => (c.req.valid as (t: 'param') => { id: string })('param').id.toLowerCase();
  const json = (c: Ctx) => (c.req.valid as (t: 'json') => Record<string, unknown>)('json');
  const tenantId = (c: Ctx) => tenantOf(callerOf(c)).id;
  /** `select` and `embed`, checked against the caller's rights on the embedded records' modules. */
  const shape = (c: Ctx) => {
    const caller = callerOf(c);
    return parseReadShape(resource, registry, c.req.queries(), {
      rights: caller.rights,
      modules: tenantOf(caller).modules,
    });
  };

  /** Runs a POST once per Idempotency-Key (same body → same response); the claim, the write and the stored response share one transaction. */
  const once = async (
    c: Ctx,
    body: unknown,
    write: (client: pg.PoolClient) => Promise<WrittenRecord>,
    status: number,
  ) => {
    const asResponse = (record: WrittenRecord): StoredResponse => ({
      status,
      etag: etag(record.version),
      body: record.json,
    });
    const key = c.req.header('idempotency-key');
    const result = key
      ? await deps.tenantDb.transaction(tenantId(c), (client) =>
          runIdempotent(
            client,
            tenantId(c),
            key,
            requestFingerprint(c.req.method, c.req.path, body),
            async () => asResponse(await write(client)),
          ),
        )
      : { ...asResponse(await inTenant(c, write)), replayed: false };
    return respond(c, result.status, result.body, { etag: result.etag, replayed: result.replayed });
  };

  switch (kind) {
    case 'list':
      return async (c) => {
        const { page_size, cursor } = (
          c.req.valid as (t: 'query') => { page_size?: number; cursor?: string }
        )('query');
        const read = shape(c);
        const count = prefersExactCount(c.req.header('prefer'));
        const body = await inTenant(c, (client) =>
          listRecords(client, resource, tenantId(c), c.req.queries(), {
            pageSize: page_size,
            cursor,
            shape: read,
            count,
          }),
        );
        if (count) c.header('Preference-Applied', 'count=exact');
        return respond(c, 200, body);
      };
    case 'export':
      return async (c) => {
        const caller = callerOf(c);
        const { body, headers } = await exportRecords(deps, registry, resource, {
          tenantId: tenantOf(caller).id,
          query: c.req.queries(),
          access: { rights: caller.rights, modules: tenantOf(caller).modules },
          method: c.req.method,
          logger: deps.logger,
          requestId: c.get('requestId'),
        });
        return body ? c.body(body, 200, headers) : c.body(null, 200, headers);
      };
    case 'get':
      return async (c) => {
        const read = shape(c);
        const record = await inTenant(c, (client) =>
          getRecord(client, resource, tenantId(c), id(c), read),
        );
        return respond(c, 200, record.json, { etag: etag(record.version) });
      };
    case 'create':
      return async (c) => {
        const body = json(c);
        return once(c, body, (client) => insertRecord(client, resource, tenantId(c), body), 201);
      };
    case 'update':
      return async (c) => {
        const expected = parseIfMatch(c.req.header('if-match'));
        const record = await inTenant(c, (client) =>
          patchRecord(client, resource, tenantId(c), id(c), json(c), expected),
        );
        return respond(c, 200, record.json, { etag: etag(record.version) });
      };
    case 'delete':
      return async (c) => {
        await inTenant(c, (client) => removeRecord(client, resource, tenantId(c), id(c)));
        return c.body(null, 204);
      };
    case 'action':
      return async (c) =>
        once(
          c,
          null,
          (client) => transitionRecord(client, resource, tenantId(c), id(c), action!),
          200,
        );
  }
}

function respond(
  c: Ctx,
  status: number,
  body: string,
  options: { etag?: string | null; replayed?: boolean } = {},
): Response {
  c.header('Content-Type', 'application/json; charset=utf-8');
  if (options.etag) c.header('ETag', options.etag);
  if (options.replayed) c.header('Idempotent-Replayed', 'true');
  return c.body(body, status as 200);
}

/** Whether `Prefer` (RFC 7240: comma-separated preferences, each with optional `;` parameters) asks for `count=exact`. */
function prefersExactCount(header: string | undefined): boolean {
  if (!header) return false;
  return header
    .split(',')
    .some((preference) => preference.split(';')[0]!.trim().toLowerCase() === 'count=exact');
}

function etag(version: number): string {
  return `"${version}"`;
}

/** `"3"`, `W/"3"` or `*` (any version); anything else cannot match any version: conflict. */
function parseIfMatch(header: string | undefined): number | null {
  if (header === undefined || header.trim() === '*') return null;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match)
    throw new ApiError('conflit', 'If-Match does not name a version of this record.', {
      reason: 'version_mismatch',
    });
  return Number(match[1]);
}
