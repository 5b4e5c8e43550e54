import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { openDatabase } from '@erp/db';
import { onShutdown, runMain, serveApp } from '@erp/http';
import { createLogger, defaultLogFormat } from '@erp/logger';
import { createMetricsRegistry, serveMetrics, startTracing } from '@erp/telemetry';
import { createSecretBox } from '@erp/webhooks';
import { buildApp } from './app';
import { createTokenSigner, generateSigningKeys } from './auth';
import { parseEnv } from './env';
import { createPortalMetrics } from './http/metrics';
import { createTenantDatabase } from './resources';
import { createReadRouter } from './resources/replicas';
import { resolveHostAddresses } from './webhooks';

/** Composition root: env → pool → deps → serve, with a graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  // Before any pool or server exists (see startTracing).
  const tracing = await startTracing({
    service: 'portal',
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    require: createRequire(import.meta.url),
  });
  const logger = createLogger(env.LOG_LEVEL, 'portal', {
    format: defaultLogFormat(env.NODE_ENV, env.LOG_FORMAT),
  });
  let signing =
    env.JWT_PRIVATE_KEY && env.JWT_PUBLIC_KEY
      ? { privateKey: env.JWT_PRIVATE_KEY, publicKey: env.JWT_PUBLIC_KEY }
      : undefined;
  if (!signing) {
    logger.warn(
      'JWT keys not set: using a throw-away pair (sessions end at restart); `pnpm dev` persists one',
    );
    signing = await generateSigningKeys();
  }
  if (!env.API_KEY_HASH_SECRET)
    logger.warn('API_KEY_HASH_SECRET not set: API keys will not survive a restart');
  if (!env.SECRETS_ENCRYPTION_KEY)
    logger.warn(
      'SECRETS_ENCRYPTION_KEY not set: webhook signing secrets and SSO client secrets will not open after a restart',
    );
  const perTransaction = env.DATABASE_POOLER === 'transaction';
  // Fair use (SPEC §16, docs/decisions.md): every request statement under a time limit, a bounded
  // wait for a connection, a bounded number of prepared statements per connection.
  const limits = {
    connectionTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    maxPreparedStatements: env.DATABASE_MAX_PREPARED_STATEMENTS,
  };
  const database = openDatabase({
    url: env.DATABASE_URL,
    max: env.DATABASE_POOL_SIZE,
    applicationName: 'portal',
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    ...limits,
    // Behind a transaction-mode pooler a session SET would stay on a server connection other
    // clients get: the limit is then the database role's (docs/decisions.md).
    ...(perTransaction ? {} : { statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS }),
  });
  const tenantDatabase = (url: string, exports?: { max: number; statementTimeoutMs: number }) =>
    createTenantDatabase({
      url,
      max: env.DATABASE_POOL_SIZE,
      preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
      binding: perTransaction ? 'transaction' : 'session',
      ...limits,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      ...(exports ? { exports } : {}),
    });
  const tenantDb = tenantDatabase(env.DATABASE_URL, {
    max: env.EXPORT_POOL_SIZE,
    statementTimeoutMs: env.EXPORT_TIME_BUDGET_MS,
  });
  const metrics = createPortalMetrics({
    registry: createMetricsRegistry({ processMetrics: true }),
    pools: { main: database.pool, tenant: tenantDb.pool, export: tenantDb.exportPool },
  });
  const reads = env.DATABASE_REPLICA_URLS.length
    ? createReadRouter({
        primary: tenantDb,
        main: database.pool,
        replicaUrls: env.DATABASE_REPLICA_URLS,
        openReplica: (url) => tenantDatabase(url),
        registry: metrics.registry,
      })
    : undefined;
  const app = buildApp({
    db: database.db,
    pool: database.pool,
    tenantDb,
    ...(reads ? { reads } : {}),
    env,
    logger,
    metrics,
    tokens: await createTokenSigner(signing.privateKey, signing.publicKey),
    apiKeyHashSecret: Buffer.from(env.API_KEY_HASH_SECRET ?? randomBytes(32).toString('hex')),
    secretBox: createSecretBox(env.SECRETS_ENCRYPTION_KEY ?? randomBytes(32).toString('hex')),
    resolveHost: resolveHostAddresses,
    now: () => new Date(),
  });

  const server = await serveApp({ fetch: app.fetch, port: env.PORTAL_PORT, host: env.PORTAL_HOST });
  const metricsServer =
    env.PORTAL_METRICS_PORT === undefined
      ? undefined
      : await serveMetrics({
          registry: metrics.registry,
          port: env.PORTAL_METRICS_PORT,
          host: env.PORTAL_HOST,
        });
  logger.info('portal listening', { url: server.url, metrics_url: metricsServer?.url });
  // Finish in-flight requests, then release the pools.
  onShutdown(logger, async () => {
    await Promise.all([server.close(), metricsServer?.close()]);
    await reads?.close();
    await Promise.all([database.close(), tenantDb.close()]);
    await tracing?.shutdown();
  });
}

runMain('portal', main);
