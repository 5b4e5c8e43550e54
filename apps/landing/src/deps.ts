import type { Database, Kysely } from '@erp/db';
import type { Logger } from '@erp/logger';
import type pg from 'pg';
import type { LandingEnv } from './env';

/** Everything landing needs from the outside world; built in main.ts, or by tests. */
export interface LandingDeps {
  /** Landing's tables are in schema `landing`; the job queue is graphile-worker's. */
  db: Kysely<Database>;
  pool: pg.Pool;
  env: LandingEnv;
  logger: Logger;
  /** Injected clock (tests move time, e.g. a provider signature's age). */
  now: () => Date;
}

export type LandingAppEnv = { Variables: { requestId: string } };
