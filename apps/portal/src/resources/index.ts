import {
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
import { requestFingerprint, runIdempotent } from './idempotency';
import {
  type OperationResult,
  parseIfMatch,
  type RecordOperation,
  resourceRight,
  runOperation,
} from './operation';
import { validateLazily } from './validation';

export { requestFingerprint, runIdempotent } from './idempotency';
export {
  type OperationResult,
  parseIfMatch,
  type RecordOperation,
  resourceRight,
  runOperation,
} from './operation';
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
  const right = resourceRight(resource, kind);
  return async function checkResourceRight(c, next) {
    const caller = callerOf(c);
    requireRight({ rights: caller.rights, modules: tenantOf(caller).modules }, right);
    await next();
  };
}

function handlerFor(
  deps: Deps,
  { kind, method, resource, action }: ResourceOperation & { resource: Resource },
): Handler {
  return async function handleResourceOperation(c) {
    const tenantId = tenantOf(callerOf(c)).id;
    const operation = operationOf(c, kind, resource, action);
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
      : { ...(await deps.tenantDb.run(tenantId, run)), replayed: false };
    return respond(c, result);
  };
}

/** The validated input of a request as the engine's operation. */
function operationOf(
  c: Ctx,
  kind: ResourceRouteKind,
  resource: Resource,
  action: string | undefined,
): RecordOperation {
  const valid = (target: string) => (c.req.valid as (t: string) => never)(target);
  const id = () => (valid('param') as { id: string }).id.toLowerCase();
  switch (kind) {
    case 'list': {
      const { page_size, cursor } = valid('query') as { page_size?: number; cursor?: string };
      return { kind, resource, query: c.req.queries(), pageSize: page_size, cursor };
    }
    case 'get':
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
  }
}

function respond(c: Ctx, result: OperationResult & { replayed: boolean }): Response {
  if (result.body === null) return c.body(null, result.status as 204);
  c.header('Content-Type', 'application/json; charset=utf-8');
  if (result.etag) c.header('ETag', result.etag);
  if (result.replayed) c.header('Idempotent-Replayed', 'true');
  return c.body(result.body, result.status as 200);
}
