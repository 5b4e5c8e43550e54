import { createLogger } from '@erp/logger';
import { EnvError, parseEnv } from './env';
import { startWorker } from './worker';

/** Composition root: env → worker (pool, tasks, heartbeat), graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = createLogger(env.LOG_LEVEL, 'worker');
  const worker = await startWorker({ env, logger });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    setTimeout(() => process.exit(1), 15_000).unref();
    worker.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    for (const line of error.lines)
      process.stderr.write(`worker: invalid configuration: ${line}\n`);
  } else {
    process.stderr.write(
      `worker: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
