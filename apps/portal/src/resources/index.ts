import {
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
import { answer } from '../http/answer-headers';
import { type AppEnv, actorOf, callerOf, tenantOf } from '../http/context';
import { exportRecords } from './export';
import { idempotencyPrincipal, requestFingerprint, runIdempotent } from './idempotency';
import {
  needsTransaction,
  type OperationResult,
  parseIfMatch,
  type RecordOperation,
  resourceRights,
  runOperation,
} from './operation';
import { parseReadShape, type ReadAccess } from './read';
import { validateLazily } from './validation';

export { idempotencyPrincipal, requestFingerprint, runIdempotent } from './idempotency';
export {
  type OperationResult,
  parseIfMatch,
  type RecordOperation,
  resourceRights,
  runOperation,
} from './operation';
export { mapWriteError } from './pg-errors';
export { parseReadShape, type ReadAccess, type ReadShape } from './read';
export { insertRecord, patchRecord, transitionRecord } from './records-write';
export { createTenantDatabase, type TenantDatabase } from './tenant-database';
export { validateLazily } from './validation';

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
        requireResourceRight(resource, operation.kind, operation.action),
        validateLazily(route),
        handlerFor(deps, registry, { ...operation, resource }),
      );
    }
  }
}

/** The operation's rights (`resourceRights`): `<module>:read` or `:write`, and a conversion's target's. */
function requireResourceRight(
  resource: Resource,
  kind: ResourceRouteKind,
  action?: string,
): MiddlewareHandler<AppEnv> {
  const rights = resourceRights(resource, kind, action);
  return async function checkResourceRight(c, next) {
    const caller = callerOf(c);
    for (const right of rights)
      requireRight({ rights: caller.rights, modules: tenantOf(caller).modules }, right);
    await next();
  };
}

function handlerFor(
  deps: Deps,
  registry: ResourceLookup,
  { kind, method, resource, action }: ResourceOperation & { resource: Resource },
): Handler {
  if (kind === 'export')
    return async function handleExport(c) {
      const caller = callerOf(c);
      const { body, headers } = await exportRecords(deps, registry, resource, {
        tenantId: tenantOf(caller).id,
        query: c.req.queries(),
        access: accessOf(c),
        method: c.req.method,
        logger: deps.logger,
        requestId: c.get('requestId'),
      });
      return body ? c.body(body, 200, headers) : c.body(null, 200, headers);
    };
  return async function handleResourceOperation(c) {
    const tenantId = tenantOf(callerOf(c)).id;
    const operation = operationOf(c, registry, kind, resource, action);
    const actor = actorOf(callerOf(c));
    const run = (client: pg.PoolClient) => runOperation(client, tenantId, operation, actor);
    // A POST runs once per Idempotency-Key (same body → same response): the claim, the write
    // and the stored response share one transaction. Anything else is single statements.
    const key = method === 'post' ? c.req.header('idempotency-key') : undefined;
    const result = key
      ? await deps.tenantDb.transaction(tenantId, (client) =>
          runIdempotent(
            client,
            tenantId,
            idempotencyPrincipal(callerOf(c)),
            key,
            requestFingerprint(
              c.req.method,
              c.req.path,
              'body' in operation ? operation.body : null,
            ),
            async () => {
              // Creations and actions, the POSTs, always answer a record.
              const { status, etag, body } = await run(client);
              return { status, etag, body: body ?? '' };
            },
          ),
        )
      : needsTransaction(operation)
        ? { ...(await deps.tenantDb.transaction(tenantId, run)), replayed: false }
        : deps.reads && isReplicaRead(operation)
          ? {
              ...(await deps.reads.read(tenantId, run)),
              replayed: false,
            }
          : { ...(await deps.tenantDb.run(tenantId, run)), replayed: false };
    return respond(
      c,
      result,
      operation.kind === 'list' && operation.count ? { 'Preference-Applied': 'count=exact' } : {},
    );
  };
}

/** The engine's plain reads, which a read replica may serve (SPEC §19). */
function isReplicaRead(operation: RecordOperation): boolean {
  return operation.kind === 'list' || operation.kind === 'get' || operation.kind === 'history';
}

/** The validated input of a request as the engine's operation. */
function operationOf(
  c: Ctx,
  registry: ResourceLookup,
  kind: ResourceRouteKind,
  resource: Resource,
  action: string | undefined,
): RecordOperation {
  const valid = (target: string) => (c.req.valid as (t: string) => never)(target);
  const id = () => (valid('param') as { id: string }).id.toLowerCase();
  /** `select` and `embed`, checked against the caller's rights on the embedded records' modules. */
  const shape = (query = c.req.queries()) => parseReadShape(resource, registry, query, accessOf(c));
  switch (kind) {
    case 'list': {
      const { page_size, cursor } = valid('query') as { page_size?: number; cursor?: string };
      // Parsed from the URL once for both (each `queries()` parses it again).
      const query = c.req.queries();
      return {
        kind,
        resource,
        query,
        pageSize: page_size,
        cursor,
        shape: shape(query),
        count: prefersExactCount(c.req.header('prefer')),
      };
    }
    case 'get':
      return { kind, resource, id: id(), shape: shape() };
    case 'export':
      throw new Error('the export streams: handleExport answers it');
    case 'delete':
      return { kind, resource, id: id() };
    case 'history': {
      const { page_size, cursor } = valid('query') as { page_size?: number; cursor?: string };
      return { kind, resource, id: id(), pageSize: page_size, cursor };
    }
    case 'create':
      return { kind, resource, body: valid('json') };
    case 'update':
      return {
        kind,
        resource,
        id: id(),
        body: valid('json'),
        expectedVersion: parseIfMatch(c.req.header('if-match')),
      };
    case 'action':
      return { kind, resource, id: id(), action: action! };
    case 'convert':
      return { kind, resource, id: id(), action: action!, body: valid('json') };
  }
}

function accessOf(c: Ctx): ReadAccess {
  const caller = callerOf(c);
  return { rights: caller.rights, modules: tenantOf(caller).modules };
}

/** Whether `Prefer` (RFC 7240: comma-separated preferences, each with optional `;` parameters) asks for `count=exact`. */
function prefersExactCount(header: string | undefined): boolean {
  if (!header) return false;
  return header
    .split(',')
    .some((preference) => preference.split(';')[0]!.trim().toLowerCase() === 'count=exact');
}

function respond(
  c: Ctx,
  result: OperationResult & { replayed: boolean },
  headers: Record<string, string>,
): Response {
  if (result.body === null) return answer(c, null, result.status, headers);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  if (result.etag) headers.ETag = result.etag;
  if (result.replayed) headers['Idempotent-Replayed'] = 'true';
  return answer(c, result.body, result.status, headers);
}
