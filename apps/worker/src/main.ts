import { createLogger } from '@erp/logger';
import { EnvError, parseEnv } from './env';
import { type RunningWorker, startWorker } from './worker';

/** Composition root: env → worker (pool, tasks, heartbeat), graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = createLogger(env.LOG_LEVEL, 'worker');
  // Signals are handled from the start: jobs may run before startWorker resolves.
  let starting: Promise<RunningWorker> | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    setTimeout(() => process.exit(1), 15_000).unref();
    (starting ?? Promise.reject(new Error('not started')))
      .then((worker) => worker.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  starting = startWorker({ env, logger });
  const worker = await starting;
  // A runner that dies on its own (not stopped by us) must take the process with it, so the
  // orchestrator restarts it instead of a heartbeat that still looks alive.
  worker.runner.promise.catch((error: unknown) => {
    if (stopping) return;
    logger.error('job runner failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    process.exit(1);
  });
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
