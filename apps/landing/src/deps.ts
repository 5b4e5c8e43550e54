import type { Database, Kysely } from '@erp/db';
import type { Logger } from '@erp/logger';
import type { HttpBindings } from '@hono/node-server';
import type pg from 'pg';
import type { Dispatcher } from 'undici';
import type { LandingEnv } from './env';
import type { LandingMetrics } from './http/metrics';

/** Everything landing needs from the outside world; built in main.ts, or by tests. */
export interface LandingDeps {
  /** Landing's tables are in schema `landing`; the job queue is graphile-worker's. */
  db: Kysely<Database>;
  pool: pg.Pool;
  env: LandingEnv;
  logger: Logger;
  /** Counted here, served by GET /metrics on LANDING_METRICS_PORT. */
  metrics: LandingMetrics;
  /** Keep-alive connections to PORTAL_URL, used by the public proxy (`createPortalPool`). */
  portal: Dispatcher;
  /** Injected clock (tests move time, e.g. a provider signature's age). */
  now: () => Date;
}

/** Under @hono/node-server the raw request is at hand (the proxy reads its exact target); `app.request()` has none. */
export type LandingAppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { requestId: string };
};
