import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobDefinition, JobPayloadInput } from '@erp/contract';
import { enqueueJob } from '@erp/db';
import type { TestDatabase } from '@erp/db/testing';
import type { Logger } from '@erp/logger';

export const SYNC_KEY = 'landing-sync-key-0123456789abcdef';
export const INTERNAL_KEY = 'saas-internal-key-0123456789abcdef';

/** No cron tick during a test (1 January, midnight): only the start-up push and ours run. */
export const NO_TICK = '0 0 1 1 *';

export interface StandInRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface StandInAnswer {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
}

type Respond = (request: StandInRequest, index: number) => StandInAnswer;

/**
 * Landing or the portal on 127.0.0.1, answering as the test says and recording every request.
 * `down()` closes it (connections are refused) and `up()` listens again on the same port.
 */
export async function startStandIn(initial: Respond = () => ({ status: 200, json: {} })) {
  const received: StandInRequest[] = [];
  let respond = initial;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
      };
      received.push(request);
      const answer = respond(request, received.length - 1);
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(answer.json ?? {}));
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const down = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answer(next: Respond) {
      respond = next;
      received.length = 0;
    },
    up: () => listen(port),
    down,
    close: () => (server.listening ? down() : Promise.resolve()),
  };
}

/** A logger that keeps every line, to check what reaches the logs (and what never does). */
export function captureLogger() {
  const lines: string[] = [];
  const write =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      lines.push(JSON.stringify({ level, message, ...fields }));
    };
  const logger: Logger = {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
  return { logger, lines, text: () => lines.join('\n') };
}

/** graphile-worker's jobs of a task (0.17: `_private_jobs` joined to `_private_tasks`). */
export async function jobsOf(database: TestDatabase, task: string) {
  const { rows } = await database.pool.query<{
    id: string;
    attempts: number;
    max_attempts: number;
    last_error: string | null;
    locked_at: Date | null;
    key: string | null;
  }>(
    `SELECT j.id, j.attempts, j.max_attempts, j.last_error, j.locked_at, j.key
     FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = $1 ORDER BY j.id`,
    [task],
  );
  return rows;
}

/**
 * Enqueues a job as landing and the portal do (`enqueueJob`, the job's own options); a test
 * may lower its runs afterwards.
 */
export async function addJob<J extends JobDefinition>(
  database: TestDatabase,
  job: J,
  payload: JobPayloadInput<J>,
  options: { maxAttempts?: number } = {},
): Promise<void> {
  await enqueueJob(database.pool, job, payload);
  if (options.maxAttempts !== undefined)
    await database.pool.query(
      `UPDATE graphile_worker._private_jobs SET max_attempts = $2
       WHERE locked_at IS NULL AND task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)`,
      [job.name, options.maxAttempts],
    );
}

/** Makes failed jobs due now instead of after graphile-worker's backoff. */
export async function retryNow(database: TestDatabase, task: string): Promise<void> {
  await database.pool.query(
    `UPDATE graphile_worker._private_jobs SET run_at = now()
     WHERE attempts > 0 AND locked_at IS NULL
       AND task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)`,
    [task],
  );
}
