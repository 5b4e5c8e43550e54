import { spawn } from 'node:child_process';
import path from 'node:path';
import type pg from 'pg';
import { serverNodeArgs } from '../lib/server-process';
import { stopProcess } from './child';

export const WORKER_DIR = path.resolve(import.meta.dirname, '../../../apps/worker');

export interface WorkerSettings {
  databaseUrl: string;
  encryptionKey: string;
  concurrency: number;
  /** Writes a V8 CPU profile of each worker process there when it exits (`--cpu-prof`). */
  profileDir?: string;
}

/** The real worker as a child process. */
export interface WorkerProcess {
  pid: number;
  /** Wall-clock ms at spawn. */
  spawnedAt: number;
  stop(): Promise<void>;
  /**
   * Freezes the process (SIGSTOP) and thaws it (SIGCONT): a worker not running for a phase
   * that needs none (3d, 3e) without losing the warm process the other phases are timed on.
   * Paused for a few seconds at most, far below `WORKER_DEAD_AFTER_SECONDS` (30): nothing
   * takes its claims over meanwhile.
   */
  pause(): void;
  resume(): void;
}

/**
 * Starts `apps/worker/src/main.ts` as production runs it (through tsx, like the portal in the
 * other benchmarks) and waits for its first heartbeat row, written once graphile-worker runs.
 * Its JSON log (warnings and errors only) goes to our stderr.
 */
export async function startWorker(settings: WorkerSettings, db: pg.Pool): Promise<WorkerProcess> {
  const spawnedAt = Date.now();
  const profile = settings.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, ...serverNodeArgs(), '--import', 'tsx', 'src/main.ts'],
    {
      cwd: WORKER_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: settings.databaseUrl,
        SECRETS_ENCRYPTION_KEY: settings.encryptionKey,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WORKER_CONCURRENCY: String(settings.concurrency),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 2, 2],
    },
  );
  // main.ts waits up to 15 s for running jobs on SIGTERM.
  const stop = () => stopProcess(child, 20_000);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the worker exited during start-up (see above)`);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM worker_heartbeats WHERE last_seen >= to_timestamp($1 / 1000.0)',
      [spawnedAt],
    );
    if (rows[0]!.n > 0)
      return {
        pid: child.pid!,
        spawnedAt,
        stop,
        pause: () => child.kill('SIGSTOP'),
        resume: () => child.kill('SIGCONT'),
      };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('the worker wrote no heartbeat within 60 s');
}
