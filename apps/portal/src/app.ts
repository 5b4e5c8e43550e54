import { type Resource, servedResources } from '@erp/contract';
import {
  bodyTooLarge,
  createErrorHandler,
  notFound,
  strictBodies,
  validationHook,
} from '@erp/http';
import { observeRequests } from '@erp/telemetry';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { registerAuditLogRoutes } from './audit-log';
import { registerAuthRoutes } from './auth';
import { registerBatchRoutes } from './batch';
import { registerBooksRoutes } from './books';
import { registerConsoleRoutes } from './console';
import type { Deps } from './deps';
import { registerEInvoicingRoutes } from './einvoicing/routes';
import { registerEventFeedRoutes } from './events';
import { answerHeaders } from './http/answer-headers';
import type { AppEnv } from './http/context';
import { registerIdentityRoutes } from './identity';
import { committedOpenApi, registerPlatformRoutes } from './platform';
import { registerResourceRoutes } from './resources';
import { registerSsoRoutes } from './sso';
import { registerWebhookRoutes } from './webhooks';

/**
 * Builds the portal's HTTP app from its dependencies (main.ts and tests alike). `openapi` gives
 * GET /api/v1/openapi.json: the committed document, byte for byte, unless a test serves a
 * registry of its own.
 */
export function buildApp(
  deps: Deps,
  resources: readonly Resource[] = servedResources,
  openapi: () => string | Uint8Array = committedOpenApi(),
): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(answerHeaders());
  app.use(observeRequests({ logger: deps.logger, metrics: deps.metrics }));
  const limitBody = bodyLimit({
    maxSize: deps.env.BODY_LIMIT_BYTES,
    onError: bodyTooLarge(deps.env.BODY_LIMIT_BYTES),
  });
  // bodyLimit reads the raw body, which makes @hono/node-server build a whole Request even for
  // a GET (~0.4 ms here): writes always go through it, other methods when they announce a body.
  const WRITES = new Set(['POST', 'PUT', 'PATCH']);
  const WRITES_AND_DELETES = new Set([...WRITES, 'DELETE']);
  app.use(async function limitRequestBody(c, next) {
    const announced =
      c.req.header('content-length') !== undefined ||
      c.req.header('transfer-encoding') !== undefined;
    return WRITES.has(c.req.method) || announced ? limitBody(c, next) : next();
  });
  app.use(strictBodies());
  const reads = deps.reads;
  if (reads)
    // Read-your-writes (SPEC §19): after a write that answered 2xx, its tenant's position.
    app.use(async function keepWritePosition(c, next) {
      await next();
      const tenant = c.get('caller')?.tenant?.id;
      if (tenant && WRITES_AND_DELETES.has(c.req.method) && c.res.status < 300)
        await reads.wrote(tenant);
    });
  app.onError(createErrorHandler(deps.logger));
  app.notFound(notFound);

  registerAuthRoutes(app, deps);
  registerIdentityRoutes(app, deps);
  registerSsoRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerAuditLogRoutes(app, deps);
  registerBooksRoutes(app, deps);
  registerEInvoicingRoutes(app, deps);
  registerPlatformRoutes(app, deps, openapi);
  registerEventFeedRoutes(app, deps, resources);
  registerResourceRoutes(app, deps, resources);
  registerBatchRoutes(app, deps, resources);
  // Last: the console takes the GETs no API route took (but never /api/*).
  registerConsoleRoutes(app, deps);
  return app;
}
