/**
 * PgBouncer (Debian's package, 1.18) in front of the run's PostgreSQL, as a managed database
 * usually sits: every client connection is multiplexed over `poolSize` server connections.
 * `.ci/run` installs it; PGBOUNCER_PATH names another binary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';

export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** The same database as `url`, through PgBouncer. */
  route(url: string): string;
  /** What PgBouncer logged (server connections, errors). */
  output: string[];
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Any URL of the server: its host, port and credentials are what PgBouncer logs in with. */
  serverUrl: string;
  poolMode: 'session' | 'transaction';
  /** Server connections per database (PgBouncer's default_pool_size). */
  poolSize: number;
}

/** Starts PgBouncer on a free port of 127.0.0.1; every database of the server is reachable. */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_PATH)) {
    throw new Error(
      `no PgBouncer at ${PGBOUNCER_PATH}: apt-get install pgbouncer (or set PGBOUNCER_PATH)`,
    );
  }
  const server = new URL(options.serverUrl);
  const port = await findFreePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'erp-pgbouncer-'));
  // Root runs it as `nobody` (it refuses root), who must read the configuration.
  await chmod(dir, 0o755);
  const config = path.join(dir, 'pgbouncer.ini');
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  // Trust still wants the user listed (the password is not checked).
  const users = path.join(dir, 'userlist.txt');
  await writeFile(users, `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    config,
    [
      '[databases]',
      // Any database name, logged in as the server's user: the clients authenticate to
      // PgBouncer (trust, loopback only), PgBouncer to PostgreSQL.
      `* = host=${server.hostname} port=${server.port} user=${user} password=${password}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      `pool_mode = ${options.poolMode}`,
      `default_pool_size = ${options.poolSize}`,
      'min_pool_size = 0',
      'reserve_pool_size = 0',
      'max_client_conn = 500',
      'max_db_connections = 0',
      // Debian's defaults otherwise: server_reset_query = DISCARD ALL, in session mode only.
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ['-u', 'nobody', config] : [config];
  const child: ChildProcess = spawn(PGBOUNCER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => output.push(...chunk.split('\n').filter(Boolean)));
  }
  const deadline = Date.now() + 10_000;
  while (!output.some((line) => line.includes('process up'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start:\n${output.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    route(url) {
      const routed = new URL(url);
      routed.hostname = '127.0.0.1';
      routed.port = String(port);
      return routed.href;
    },
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
