import type { Logger } from '@erp/logger';
import { EnvError } from './env';

/**
 * Runs an app's composition root. A start that fails ends the process with one line per
 * problem on stderr (`portal: invalid configuration: PORTAL_PORT: ...`), never a stack trace:
 * that line is what `pnpm dev` and an orchestrator's log show.
 */
export function runMain(app: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const lines =
      error instanceof EnvError
        ? error.lines.map((line) => `${app}: invalid configuration: ${line}`)
        : [`${app}: failed to start: ${error instanceof Error ? error.message : String(error)}`];
    process.stderr.write(`${lines.join('\n')}\n`);
    process.exit(1);
  });
}

/**
 * Graceful shutdown on SIGTERM and SIGINT, once: `stop` finishes in-flight work and releases
 * resources; the process exits 0 when it resolves, 1 when it fails or takes longer than
 * `graceMs` (an orchestrator's own kill comes later; we would rather exit on our terms).
 */
export function onShutdown(
  logger: Logger,
  stop: () => Promise<unknown>,
  { graceMs = 10_000 }: { graceMs?: number } = {},
): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    setTimeout(() => process.exit(1), graceMs).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', {
          error: error instanceof Error ? error.message : String(error),
        });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
