import { Logger, runMigrations as runQueueMigrations } from 'graphile-worker';
import type { Kysely } from 'kysely';
import { type MigrationResultSet, Migrator } from 'kysely/migration';
import type pg from 'pg';
import { migrations } from './migrations/index';

/**
 * Applies every pending migration; throws with the failing migration's name. The job queue's
 * schema (graphile-worker's own migrations) comes first: our triggers enqueue into it.
 */
export async function migrateToLatest(handle: {
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema, as Kysely's Migrator does.
  db: Kysely<any>;
  pool: pg.Pool;
}): Promise<MigrationResultSet> {
  await runQueueMigrations({ pgPool: handle.pool, logger: silentLogger });
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/** graphile-worker announces its migrations on the console; the migrate CLI reports ours. */
const silentLogger = new Logger(() => () => {});
