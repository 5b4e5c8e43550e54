import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.gen';

export type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
export { Kysely, PostgresDialect, sql } from 'kysely';
export type * from './database.gen';
export { enqueueJob, enqueueJobs, type JobExecutor, type JobOptions } from './jobs';
export { migrateToLatest } from './migrate';
export { migrations } from './migrations/index';
export {
  type RateLimitBucket,
  type RateLimitVerdict,
  takeRateLimitUnit,
} from './rate-limit';
export type * from './schema';

export interface DatabaseOptions {
  url: string;
  /** Pool size; PostgreSQL likes a few connections per core. */
  max?: number;
  applicationName?: string;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  /** Ends the pool once its clients are returned. */
  close(): Promise<void>;
}

/** Opens a pool and a Kysely instance on it. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
