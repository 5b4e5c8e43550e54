import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSubscription,
  createTenant,
  ENCRYPTION_KEY,
  recordEvent,
  startReceiver,
  waitFor,
} from './harness';

const WORKER_DIR = path.resolve(import.meta.dirname, '..');
let database: TestDatabase;
const children: ChildProcess[] = [];

/** The real worker, as `node src/main.ts` in a process of its own. */
function spawnWorker(): ChildProcess & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: WORKER_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      SECRETS_ENCRYPTION_KEY: ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WORKER_CONCURRENCY: '8',
      WORKER_POLL_INTERVAL_MS: '100',
      WORKER_HEARTBEAT_SECONDS: '0.5',
      WORKER_DEAD_AFTER_SECONDS: '2',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  // Listened for from the start: a process that exits early must not be waited for forever.
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return Object.assign(child, { exited });
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await database?.close();
});

describe('crash safety', () => {
  it('a worker killed with SIGKILL mid-batch and restarted delivers every delivery at least once', async () => {
    const EVENTS = 120;
    const receiver = await startReceiver(() => ({ status: 200 }));
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, receiver.url);
    await createSubscription(database, tenant, `${receiver.url}?second`);
    for (let i = 0; i < EVENTS; i++) await recordEvent(database, tenant);

    const first = spawnWorker();
    await waitFor(() => receiver.received.length >= 40, 30_000);
    first.kill('SIGKILL');
    await first.exited;
    const { rows: locked } = await database.pool.query(
      'SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_by IS NOT NULL',
    );
    const { rows: before } = await database.pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`,
    );
    // Killed mid-way, with jobs still locked under its ids: only the heartbeat frees them soon.
    expect(before[0].n).toBeLessThan(EVENTS * 2);
    expect(locked[0].n).toBeGreaterThan(0);

    const second = spawnWorker();
    try {
      const { rows: all } = await waitFor(async () => {
        const result = await database.pool.query<{ id: string; status: string }>(
          'SELECT id, status FROM webhook_deliveries',
        );
        return (
          result.rows.length === EVENTS * 2 &&
          result.rows.every((d) => d.status === 'delivered') &&
          result
        );
      }, 60_000);
      const received = new Set(
        receiver.received.map((r) => String(r.headers['x-service-delivery-id'])),
      );
      const lost = all.filter((d) => !received.has(d.id));
      expect(lost).toEqual([]);
      // Every job ends too (a job is completed just after its deliveries are recorded).
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          'SELECT count(*)::int AS n FROM graphile_worker.jobs',
        );
        return rows[0].n === 0;
      }, 20_000);
      process.stdout.write(
        `crash: ${locked[0].n} jobs locked by the killed worker, ${before[0].n} deliveries recorded before the kill, ${receiver.received.length - all.length} delivered twice\n`,
      );
    } finally {
      // The next test must meet no worker but its own.
      second.kill('SIGTERM');
      await second.exited;
      await receiver.close();
    }
  }, 90_000);

  it('SIGTERM lets the attempt in flight finish and be recorded, then exits 0', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const { createServer } = await import('node:http');
    const arrived: string[] = [];
    const server = createServer((req, res) => {
      arrived.push(String(req.headers['x-service-delivery-id']));
      req.resume();
      void held.then(() => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, `http://127.0.0.1:${port}/hook`);
    const child = spawnWorker();
    await recordEvent(database, tenant);
    // The worker's start (tsx compiling it) is most of this on a loaded machine.
    await waitFor(() => arrived.length === 1, 60_000);
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(child.exitCode).toBeNull(); // still finishing the attempt
    release();
    const code = await child.exited;
    expect(code).toBe(0);
    const { rows } = await database.pool.query(
      'SELECT status, attempts FROM webhook_deliveries WHERE id = $1',
      [arrived[0]],
    );
    expect(rows[0]).toEqual({ status: 'delivered', attempts: 1 });
    server.closeAllConnections();
    server.close();
  }, 120_000);
});
