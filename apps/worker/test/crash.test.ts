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
    const { rows: claimed } = await database.pool.query(
      'SELECT count(*)::int AS n FROM webhook_claims',
    );
    const { rows: before } = await database.pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`,
    );
    // Killed mid-way: deliveries still to make, some of them claimed under its process id, which
    // only the heartbeat's end hands over.
    expect(before[0].n).toBeLessThan(EVENTS * 2);

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
      // Every claim is released (with the record of its attempts), and no job is left.
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          'SELECT (SELECT count(*) FROM graphile_worker.jobs)::int + (SELECT count(*) FROM webhook_claims)::int AS n',
        );
        return rows[0].n === 0;
      }, 20_000);
      process.stdout.write(
        `crash: ${claimed[0].n} claims held by the killed worker, ${before[0].n} deliveries recorded before the kill, ${receiver.received.length - all.length} delivered twice\n`,
      );
    } finally {
      // The next test must meet no worker but its own.
      second.kill('SIGTERM');
      await second.exited;
      await receiver.close();
    }
  }, 90_000);

  it('a worker killed while it holds a claimed batch: another takes the claim over and every delivery arrives, with its id', async () => {
    const EVENTS = 30;
    // The receiver holds every request of the first worker: its batch stays claimed, attempted
    // but unrecorded, until the kill.
    let holding = true;
    const held: Array<() => void> = [];
    const { createServer } = await import('node:http');
    const arrived: string[] = [];
    const server = createServer((req, res) => {
      const id = String(req.headers['x-service-delivery-id']);
      req.resume();
      req.on('end', () => {
        arrived.push(id);
        if (holding) held.push(() => res.end('ok'));
        else res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const tenant = await createTenant(database);
    await createSubscription(database, tenant, `http://127.0.0.1:${port}/hook`);
    for (let i = 0; i < EVENTS; i++) await recordEvent(database, tenant);

    const first = spawnWorker();
    await waitFor(() => arrived.length === EVENTS, 60_000);
    const { rows: claims } = await database.pool.query<{ process_id: string; n: number }>(
      'SELECT process_id, cardinality(delivery_ids) AS n FROM webhook_claims',
    );
    expect(claims.reduce((sum, c) => sum + c.n, 0)).toBe(EVENTS);
    first.kill('SIGKILL');
    await first.exited;
    // Nothing was recorded: no delivery is written before its first attempt's record, and the
    // claims that hold them outlive the process.
    const { rows: unrecorded } = await database.pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1`,
      [tenant],
    );
    expect(unrecorded[0].n).toBe(0);
    const { rows: still } = await database.pool.query(
      'SELECT sum(cardinality(delivery_ids))::int AS n FROM webhook_claims',
    );
    expect(still[0].n).toBe(EVENTS);
    holding = false;
    for (const answer of held.splice(0)) answer();

    const second = spawnWorker();
    try {
      const rows = await waitFor(async () => {
        const { rows } = await database.pool.query<{ id: string; status: string }>(
          `SELECT d.id, d.status FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
           WHERE e.tenant_id = $1 ORDER BY d.id`,
          [tenant],
        );
        return rows.length === EVENTS && rows.every((d) => d.status === 'delivered') && rows;
      }, 60_000);
      // Each delivery was sent twice (once to the dead worker's held request), with one id.
      const ids = rows.map((d) => d.id);
      expect([...new Set(arrived)].sort()).toEqual(ids);
      expect(arrived).toHaveLength(EVENTS * 2);
      const { rows: left } = await database.pool.query(
        'SELECT count(*)::int AS n FROM webhook_claims',
      );
      expect(left[0].n).toBe(0);
    } finally {
      second.kill('SIGTERM');
      await second.exited;
      server.closeAllConnections();
      server.close();
    }
  }, 150_000);

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
