import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded';
import { type DatabaseHandle, openDatabase } from '../src/index';
import { migrateToLatest } from '../src/migrate';

/**
 * Runs `work` on a database every migration has been applied to: a throw-away embedded
 * PostgreSQL (the version the tests use), removed afterwards.
 */
export async function withMigratedDatabase<T>(
  work: (handle: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'erp-codegen-pg-'));
  const server = await startEmbeddedPostgres({ dataDir, persistent: false, ephemeral: true });
  try {
    const handle = openDatabase({ url: server.url, max: 2 });
    try {
      await migrateToLatest(handle);
      return await work(handle);
    } finally {
      await handle.close();
    }
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
