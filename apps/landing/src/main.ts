import { createServer } from 'node:http';
import { openDatabase } from '@erp/db';
import { createLogger } from '@erp/logger';
import { buildApp } from './app';
import { EnvError, parseEnv } from './env';
import { createLandingListener } from './http/listener';
import { createPortalPool } from './proxy/portal-pool';

/** Composition root: env → pool → deps → serve, with a graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = createLogger(env.LOG_LEVEL, 'landing');
  if (!env.LANDING_SYNC_API_KEY)
    logger.warn('LANDING_SYNC_API_KEY not set: ERP sync pushes are refused');
  if (!env.PAYMENT_WEBHOOK_SECRET)
    logger.warn('PAYMENT_WEBHOOK_SECRET not set: payment webhooks are refused');
  const database = openDatabase({
    url: env.DATABASE_URL,
    max: env.DATABASE_POOL_SIZE,
    applicationName: 'landing',
  });
  const portal = createPortalPool(env);
  const app = buildApp({
    db: database.db,
    pool: database.pool,
    env,
    logger,
    portal,
    now: () => new Date(),
  });

  const server = createServer(createLandingListener(app));
  server.listen(env.LANDING_PORT, env.LANDING_HOST, () =>
    logger.info('landing listening', { url: `http://${env.LANDING_HOST}:${env.LANDING_PORT}` }),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close(() => {
      Promise.all([portal.close(), database.close()]).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    for (const line of error.lines)
      process.stderr.write(`landing: invalid configuration: ${line}\n`);
  } else {
    process.stderr.write(
      `landing: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
