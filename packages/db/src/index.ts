import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { Database } from './database.gen';
import { createPool, type PoolOptions } from './pool';

export type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
export { Kysely, PostgresDialect, sql } from 'kysely';
export type * from './database.gen';
export { enqueueJob, enqueueJobs, type JobExecutor, type JobOptions } from './jobs';
export { migrateToLatest } from './migrate';
export { migrations } from './migrations/index';
export { createPool, type PoolOptions } from './pool';
export {
  type RateLimitBucket,
  type RateLimitVerdict,
  takeRateLimitUnit,
} from './rate-limit';
export type * from './schema';
export { uuidv7 } from './uuid';

/** Pool size (`max`): PostgreSQL likes a few connections per core. */
export type DatabaseOptions = PoolOptions;

export interface DatabaseHandle {
  db: Kysely<Database>;
  pool: pg.Pool;
  /** Ends the pool once its clients are returned. */
  close(): Promise<void>;
}

/** Opens a pool and a Kysely instance on it. */
export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  const pool = createPool(options);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}
