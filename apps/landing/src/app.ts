import { sql } from '@erp/db';
import { bodyTooLarge, createErrorHandler, notFound } from '@erp/http';
import { observeRequests } from '@erp/telemetry';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import type { LandingAppEnv, LandingDeps } from './deps';
import { registerErpSyncRoutes } from './erp-sync';
import { registerFormRoutes } from './forms';
import { registerOnboardingRoutes } from './onboarding';
import { registerPages } from './pages';
import { registerPaymentRoutes } from './payments';
import { registerPublicProxy } from './proxy';

/** Builds landing's HTTP app from its dependencies (main.ts and tests alike). */
export function buildApp(deps: LandingDeps): Hono<LandingAppEnv> {
  const app = new Hono<LandingAppEnv>();
  app.use(requestId());
  app.use(observeRequests({ logger: deps.logger, metrics: deps.metrics }));
  app.onError(createErrorHandler(deps.logger));
  app.notFound(notFound);

  // The proxy streams bodies both ways: mounted before the body limit, which would buffer.
  const publicPortal = registerPublicProxy(app, deps);

  // The sync push has its own, larger limit, checked after its key.
  registerErpSyncRoutes(app, deps);

  app.use(
    bodyLimit({
      maxSize: deps.env.BODY_LIMIT_BYTES,
      onError: bodyTooLarge(deps.env.BODY_LIMIT_BYTES),
    }),
  );

  registerPaymentRoutes(app, deps);
  registerFormRoutes(app, deps);
  registerOnboardingRoutes(app, deps);
  registerPages(app, deps, publicPortal);

  app.get('/api/health', (c) => c.json({ status: 'ok' as const }));
  app.get('/api/ready', async (c) => {
    try {
      await sql`SELECT 1`.execute(deps.db);
      return c.json({ status: 'ok' as const });
    } catch {
      return c.json({ status: 'unavailable' as const }, 503);
    }
  });
  return app;
}
