import {
  ApiError,
  isReadKind,
  RESOURCE_SECURITY,
  type Resource,
  type ResourceOperation,
  type ResourceRouteKind,
  resourceOperations,
  resourceRoutes,
} from '@erp/contract';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type pg from 'pg';
import { requireRight, securityMiddleware } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, actorOf, callerOf, tenantOf } from '../http/context';
import { recordHistory } from './history-read';
import { requestFingerprint, runIdempotent, type StoredResponse } from './idempotency';
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
  for (const resource of resources) {
    for (const operation of resourceOperations(resource)) {
      const route = () =>
        resourceRoutes(resource).find(
          (r) => r.kind === operation.kind && r.action === operation.action,
        )!.route;
      app.on(
        operation.method.toUpperCase(),
        operation.path.replace(/\{(\w+)\}/g, ':$1'),
        authenticated,
        // Rights are checked before the body is validated: a caller without the right learns nothing.
        requireResourceRight(resource, operation.kind),
        validateLazily(route),
        handlerFor(deps, { ...operation, resource }),
      );
    }
  }
}

/** `<module>:read` for list, get and history, `<module>:write` for everything else. */
function requireResourceRight(
  resource: Resource,
  kind: ResourceRouteKind,
): MiddlewareHandler<AppEnv> {
  const right = `${resource.module}:${isReadKind(kind) ? 'read' : 'write'}`;
  return async function checkResourceRight(c, next) {
    const caller = callerOf(c);
    requireRight({ rights: caller.rights, modules: tenantOf(caller).modules }, right);
    await next();
  };
}

function handlerFor(
  deps: Deps,
  { kind, resource, action }: ResourceOperation & { resource: Resource },
): Handler {
  /** Runs single statements for the caller's tenant (rights were checked by the route's middleware). */
  const inTenant = <T>(c: Ctx, work: (client: pg.PoolClient) => Promise<T>) =>
    deps.tenantDb.run(tenantOf(callerOf(c)).id, work);
  const id = (c: Ctx) => (c.req.valid as (t: 'param') => { id: string })('param').id.toLowerCase();
  const json = (c: Ctx) => (c.req.valid as (t: 'json') => Record<string, unknown>)('json');
  const tenantId = (c: Ctx) => tenantOf(callerOf(c)).id;
  const actor = (c: Ctx) => actorOf(callerOf(c));

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
        const body = await inTenant(c, (client) =>
          listRecords(client, resource, tenantId(c), c.req.queries(), {
            pageSize: page_size,
            cursor,
          }),
        );
        return respond(c, 200, body);
      };
    case 'get':
      return async (c) => {
        const record = await inTenant(c, (client) =>
          getRecord(client, resource, tenantId(c), id(c)),
        );
        return respond(c, 200, record.json, { etag: etag(record.version) });
      };
    case 'history':
      return async (c) => {
        const { page_size, cursor } = (
          c.req.valid as (t: 'query') => { page_size?: number; cursor?: string }
        )('query');
        const body = await inTenant(c, (client) =>
          recordHistory(client, resource, tenantId(c), id(c), { pageSize: page_size, cursor }),
        );
        return respond(c, 200, body);
      };
    case 'create':
      return async (c) => {
        const body = json(c);
        return once(
          c,
          body,
          (client) => insertRecord(client, resource, tenantId(c), body, actor(c)),
          201,
        );
      };
    case 'update':
      return async (c) => {
        const expected = parseIfMatch(c.req.header('if-match'));
        const record = await inTenant(c, (client) =>
          patchRecord(client, resource, tenantId(c), id(c), json(c), expected, actor(c)),
        );
        return respond(c, 200, record.json, { etag: etag(record.version) });
      };
    case 'delete':
      return async (c) => {
        await inTenant(c, (client) => removeRecord(client, resource, tenantId(c), id(c), actor(c)));
        return c.body(null, 204);
      };
    case 'action':
      return async (c) =>
        once(
          c,
          null,
          (client) => transitionRecord(client, resource, tenantId(c), id(c), action!, actor(c)),
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
