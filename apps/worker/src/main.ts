import { createRequire } from 'node:module';
import { onShutdown, runMain } from '@erp/http';
import { createLogger, defaultLogFormat } from '@erp/logger';
import { createMetricsRegistry, startTracing } from '@erp/telemetry';
import { parseEnv } from './env';
import { type RunningWorker, startWorker } from './worker';

/** Composition root: env → worker (pool, tasks, heartbeat), graceful SIGTERM. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  // Before any pool or server exists (see startTracing).
  const tracing = await startTracing({
    service: 'worker',
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    require: createRequire(import.meta.url),
  });
  const logger = createLogger(env.LOG_LEVEL, 'worker', {
    format: defaultLogFormat(env.NODE_ENV, env.LOG_FORMAT),
  });
  // Signals are handled from the start: jobs may run before startWorker resolves.
  let starting: Promise<RunningWorker> | undefined;
  let stopping = false;
  onShutdown(
    logger,
    async () => {
      stopping = true;
      await (await (starting ?? Promise.reject(new Error('not started')))).stop();
      await tracing?.shutdown();
    },
    { graceMs: 15_000 },
  );
  starting = startWorker({
    env,
    logger,
    registry: createMetricsRegistry({ processMetrics: true }),
  });
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

runMain('worker', main);
