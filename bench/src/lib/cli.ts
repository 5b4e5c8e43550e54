import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A positive integer from the environment, or `fallback` when unset. */
export function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Progress goes to stderr, so stdout holds only the report. */
export const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Runs a benchmark's `main` and calls `stop` on every exit path (error and Ctrl-C included),
 * so no PostgreSQL or server process outlives the run.
 */
export function runBench(
  name: string,
  main: () => Promise<void>,
  stop: () => Promise<void> | undefined,
): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void (stop() ?? Promise.resolve()).finally(() => process.exit(130)));
  }
  main()
    .catch((error: unknown) => {
      log(
        `bench ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exitCode = 1;
    })
    .finally(() => stop());
}

/** Writes `bench/results/<name>-<time>.json` (git-ignored) and says where. */
export async function writeResults(name: string, data: unknown): Promise<void> {
  const dir = path.resolve(import.meta.dirname, '../../results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  log(`\nresults: ${path.relative(process.cwd(), file)}`);
}
