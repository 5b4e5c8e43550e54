import { randomUUID } from 'node:crypto';
import { Logger, run } from 'graphile-worker';
import pg from 'pg';
import { Agent, request } from 'undici';
import { clock, serveParent } from './child';

/**
 * graphile-worker with one no-op task, in a process of its own: the ceiling of the queue
 * itself. `NOOP_PRESET=worker` copies apps/worker/src/worker.ts (pool of concurrency + 4 up to 30,
 * local queue of `concurrency` jobs, completions and failures batched with no delay);
 * `default` keeps graphile-worker's defaults (no local queue, one completion per job). With
 * `NOOP_POST_URL`, each job makes one POST there (undici, keep-alive, as the worker's sender)
 * and nothing else: the floor of a job that delivers one webhook.
 */
const concurrency = Number(process.env.NOOP_CONCURRENCY);
const preset = process.env.NOOP_PRESET === 'worker' ? 'worker' : 'default';
const task = process.env.NOOP_TASK!;
const postUrl = process.env.NOOP_POST_URL;
const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
// The size of a delivery's body.
const body = JSON.stringify({ id: randomUUID(), padding: 'x'.repeat(480) });

async function post(url: string) {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    dispatcher: agent,
  });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`POST answered ${response.statusCode}`);
}

const pool = new pg.Pool({
  connectionString: process.env.NOOP_DATABASE_URL,
  max: Math.min(concurrency + 4, 30), // as the worker's pool
  application_name: `noop-worker-${preset}`,
});
pool.on('error', () => {});
// graphile-worker checks that clients have error handlers too.
pool.on('connect', (client) => client.on('error', () => {}));

let done = 0;
let expected = Number.POSITIVE_INFINITY;
let firstAt = Number.NaN;
let lastAt = Number.NaN;
let notify: (() => void) | undefined;

// Like the worker's logger at LOG_LEVEL=warn: graphile-worker formats every message, only
// warnings and errors are written.
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') process.stderr.write(`noop worker: ${message}\n`);
});

const runner = await run({
  pgPool: pool,
  taskList: {
    [task]: async () => {
      if (postUrl) await post(postUrl);
      const now = clock();
      if (done === 0) firstAt = now;
      lastAt = now;
      if (++done === expected) notify?.();
    },
  },
  concurrency,
  noHandleSignals: true,
  logger,
  preset:
    preset === 'worker'
      ? {
          worker: {
            localQueue: { size: concurrency },
            completeJobBatchDelay: 0,
            failJobBatchDelay: 0,
          },
        }
      : {},
});

serveParent(async (request) => {
  if (request.type === 'expect') {
    // Counting restarts: the next `count` jobs run are the measured ones.
    done = 0;
    expected = Number(request.count);
    firstAt = Number.NaN;
    lastAt = Number.NaN;
    return {};
  }
  if (request.type === 'wait') {
    if (done < expected) await new Promise<void>((resolve) => (notify = resolve));
    return { count: done, firstAt, lastAt };
  }
  throw new Error(`unknown request ${String(request.type)}`);
});

process.on('SIGTERM', () => {
  runner
    .stop()
    .then(() => Promise.all([pool.end(), agent.close()]))
    .finally(() => process.exit(0));
});
