import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '@erp/db';
import { startEmbeddedPostgres } from '@erp/db/embedded';
import pg from 'pg';

/** A migrated database on an embedded PostgreSQL of its own; `stop` removes everything. */
export interface BenchDatabase {
  url: string;
  postmasterPid: number;
  /** The cluster's data directory (a hot standby is copied from it). */
  dataDir: string;
  postgresVersion: string;
  stop(): Promise<void>;
}

/**
 * An embedded PostgreSQL in a temporary directory (durable unless `ephemeral`) with database
 * `name` created and migrated (graphile-worker's schema included).
 */
export async function startDatabase(name: string, ephemeral: boolean): Promise<BenchDatabase> {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    while (stops.length) await stops.pop()!().catch(() => {});
  };
  try {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'erp-bench-pg-'));
    stops.push(() => rm(dataDir, { recursive: true, force: true }));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false, ephemeral });
    stops.push(() => server.stop());
    const postmasterPid = Number(
      (await readFile(`${dataDir}/postmaster.pid`, 'utf8')).split('\n')[0],
    );
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const { rows } = await admin.query<{ v: string }>(
      "SELECT current_setting('server_version') AS v",
    );
    await admin.end();
    const url = server.urlFor(name);
    const handle = openDatabase({ url, max: 1 });
    await migrateToLatest(handle).finally(() => handle.close());
    return { url, postmasterPid, dataDir, postgresVersion: rows[0]?.v ?? 'unknown', stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
