import type { Logger } from '@erp/logger';
import type pg from 'pg';
import type { WorkerEnv } from '../env';
import type { WorkerMetrics } from '../runtime/metrics';
import type { Outbound } from './outbound';

/** What the landing tasks need: the database, the outbound client, configuration, a log. */
export interface LandingDeps {
  pool: pg.Pool;
  outbound: Outbound;
  env: Pick<
    WorkerEnv,
    'LANDING_SYNC_URL' | 'LANDING_SYNC_API_KEY' | 'PORTAL_URL' | 'SAAS_INTERNAL_API_KEY'
  >;
  logger: Logger;
  now: () => Date;
}

/** The sync push also counts its outcomes (`erp_sync_pushes_total`). */
export type SyncDeps = LandingDeps & { metrics: Pick<WorkerMetrics, 'syncPushes'> };

/** Keeps error texts short enough for a status column and a log line. */
export function shorten(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
