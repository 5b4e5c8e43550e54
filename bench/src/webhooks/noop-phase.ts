import path from 'node:path';
import type pg from 'pg';
import { type Child, clock, startChild } from './child';
import { cpuPerItem, sampleCpu } from './cpu-sample';
import type { PhaseSample } from './phase';
import { enqueueAnalyzed } from './queue-stats';

/** Which preset the no-op worker runs: the real worker's, or graphile-worker's defaults. */
export type NoopPreset = 'worker' | 'default';

export interface NoopSettings {
  /** The receiver's base URL, for the jobs that POST once each. */
  receiverBaseUrl: string;
  databaseUrl: string;
  postmasterPid: number;
  receiverPid: number;
  concurrency: number;
  jobs: number;
  warmupJobs: number;
}

const SCRIPT = path.join(import.meta.dirname, 'noop-worker.ts');

// One statement, as the events trigger enqueues: graphile_worker.add_jobs with N job specs.
const ADD_JOBS = `SELECT graphile_worker.add_jobs(array_agg(
    ROW($1::text, '{}'::json, NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec))
  FROM generate_series(1, $2)`;

/**
 * graphile-worker's own ceiling: a fresh no-op worker process (task name of its own, so no
 * other worker takes its jobs), warmed up, then `jobs` jobs enqueued in one statement (the
 * queue analyzed in the same transaction: see `enqueueAnalyzed`) and timed from that COMMIT to the last job run, counted inside the worker. The queue must then
 * be empty in the database too.
 */
export async function measureNoop(
  db: pg.Pool,
  preset: NoopPreset,
  s: NoopSettings,
  post?: { receiver: Child },
): Promise<PhaseSample> {
  const task = `bench_noop_${preset}${post ? '_post' : ''}`;
  const child = await startChild({
    name: `no-op worker (${preset})`,
    script: SCRIPT,
    cwd: import.meta.dirname,
    env: {
      NODE_ENV: 'production',
      NOOP_DATABASE_URL: s.databaseUrl,
      NOOP_PRESET: preset,
      NOOP_TASK: task,
      NOOP_CONCURRENCY: String(s.concurrency),
      ...(post ? { NOOP_POST_URL: `${s.receiverBaseUrl}/noop` } : {}),
    },
  });
  try {
    await drain(db, child, task, s.warmupJobs);
    const pids = { worker: child.pid, postmaster: s.postmasterPid, receiver: s.receiverPid };
    await post?.receiver.call({ type: 'reset' });
    const from = sampleCpu(pids);
    const run = await drain(db, child, task, s.jobs);
    const to = sampleCpu(pids);
    if (post) {
      const { count } = await post.receiver.call<{ count: number }>({ type: 'count' });
      if (count !== s.jobs) throw new Error(`the receiver got ${count} POSTs for ${s.jobs} jobs`);
    }
    const seconds = (run.lastAt - run.committedAt) / 1000;
    return {
      items: s.jobs,
      seconds,
      perSec: s.jobs / seconds,
      cpu: cpuPerItem(from, to, s.jobs),
      notes: {
        enqueueMs: run.committedAt - run.startedAt,
        firstJobAfterMs: run.firstAt - run.committedAt,
      },
    };
  } finally {
    await child.stop();
  }
}

async function drain(db: pg.Pool, child: Child, task: string, jobs: number) {
  await child.call({ type: 'expect', count: jobs });
  const startedAt = clock();
  await enqueueAnalyzed(db, (client) => client.query(ADD_JOBS, [task, jobs]));
  const committedAt = clock();
  const done = await child.call<{ firstAt: number; lastAt: number }>({ type: 'wait' });
  // Completions are written in batches after the task returns: wait until the queue is empty.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1',
      [task],
    );
    if (rows[0]!.n === 0) break;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.n} ${task} jobs left in the queue`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { startedAt, committedAt, ...done };
}
