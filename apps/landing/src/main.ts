import { createRequire } from 'node:module';
import { openDatabase } from '@erp/db';
import { onShutdown, runMain, serveApp } from '@erp/http';
import { createLogger, defaultLogFormat } from '@erp/logger';
import { createMetricsRegistry, serveMetrics, startTracing } from '@erp/telemetry';
import { buildApp } from './app';
import { parseEnv } from './env';
import { createLandingMetrics } from './http/metrics';
import { createPortalPool } from './proxy/portal-pool';

/** Composition root: env → pool → deps → serve, with a graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  // Before any pool or server exists (see startTracing).
  const tracing = await startTracing({
    service: 'landing',
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    require: createRequire(import.meta.url),
  });
  const logger = createLogger(env.LOG_LEVEL, 'landing', {
    format: defaultLogFormat(env.NODE_ENV, env.LOG_FORMAT),
  });
  if (!env.LANDING_SYNC_API_KEY)
    logger.warn('LANDING_SYNC_API_KEY not set: ERP sync pushes are refused');
  if (!env.PAYMENT_WEBHOOK_SECRET)
    logger.warn('PAYMENT_WEBHOOK_SECRET not set: payment webhooks are refused');
  if (Object.keys(env.PAYMENT_PLAN_PRICES).length === 0 && env.NODE_ENV !== 'development')
    logger.warn('PAYMENT_PLAN_PRICES is empty: every purchase is ignored (no price names a plan)');
  const database = openDatabase({
    url: env.DATABASE_URL,
    max: env.DATABASE_POOL_SIZE,
    applicationName: 'landing',
  });
  const portal = createPortalPool(env);
  const metrics = createLandingMetrics({
    registry: createMetricsRegistry({ processMetrics: true }),
    pools: { main: database.pool },
  });
  const app = buildApp({
    db: database.db,
    pool: database.pool,
    env,
    logger,
    metrics,
    portal,
    now: () => new Date(),
  });

  const server = await serveApp({
    fetch: app.fetch,
    port: env.LANDING_PORT,
    host: env.LANDING_HOST,
  });
  const metricsServer =
    env.LANDING_METRICS_PORT === undefined
      ? undefined
      : await serveMetrics({
          registry: metrics.registry,
          port: env.LANDING_METRICS_PORT,
          host: env.LANDING_HOST,
        });
  logger.info('landing listening', { url: server.url, metrics_url: metricsServer?.url });
  onShutdown(logger, async () => {
    await Promise.all([server.close(), metricsServer?.close()]);
    await Promise.all([portal.close(), database.close()]);
    await tracing?.shutdown();
  });
}

runMain('landing', main);
