import { type Resource, routes } from '@erp/contract';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf, tenantOf } from '../http/context';
import { createRouteResolver } from './resolve';
import { runBatch } from './run-batch';
import { takeBatchUnits } from './units';

/**
 * `POST /api/v1/batch` (SPEC §12): business operations in one transaction. Authentication
 * (one rate-limit unit) and the envelope's validation come from the contract route; then the
 * other units, then the batch.
 */
export function registerBatchRoutes(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  resources: readonly Resource[],
): void {
  const resolveRoute = createRouteResolver(resources);
  app.openapi(secure(routes.batch, deps), async (c) => {
    const caller = callerOf(c);
    const { operations } = c.req.valid('json');
    await takeBatchUnits(deps, c, caller, operations.length);
    const answer = await runBatch(
      deps,
      resolveRoute,
      { caller, tenant: tenantOf(caller) },
      operations,
      c.req.valid('header')['idempotency-key'],
    );
    c.header('Content-Type', 'application/json; charset=utf-8');
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    // JSON text joined from the records PostgreSQL wrote, never parsed and re-serialised.
    return c.body(answer.body, 200) as never;
  });
}
