import type { Database, Kysely } from '@erp/db';
import type { Logger } from '@erp/logger';
import type { SecretBox } from '@erp/webhooks';
import type pg from 'pg';
// Types from the modules that define them, not the features' doors: every feature imports
// this file, so importing a door back would make a loop (type-only, but a loop to read).
import type { TokenSigner } from './auth/jwt';
import type { PortalEnv } from './env';
import type { PortalMetrics } from './http/metrics';
import type { ReadRouter } from './resources/replicas';
import type { TenantDatabase } from './resources/tenant-database';

/** Everything the app needs from the outside world; built in main.ts, or by tests. */
export interface Deps {
  db: Kysely<Database>;
  /** The same pool as `db`'s, for hand-built hot-path SQL (API-key authentication). */
  pool: pg.Pool;
  /** Business statements: as `erp_app`, bound to a tenant (row-level security). */
  tenantDb: TenantDatabase;
  /** The engine's reads on read replicas, when DATABASE_REPLICA_URLS names some (SPEC §19). */
  reads?: ReadRouter;
  env: PortalEnv;
  tokens: TokenSigner;
  /** HMAC key of API-key hashes. */
  apiKeyHashSecret: Buffer;
  logger: Logger;
  /** Counted here, served by GET /metrics on PORTAL_METRICS_PORT. */
  metrics: PortalMetrics;
  /** Seals webhook signing secrets at rest (`SECRETS_ENCRYPTION_KEY`). */
  secretBox: SecretBox;
  /** Addresses a host name resolves to (DNS; tests inject their own). */
  resolveHost: (hostname: string) => Promise<string[]>;
  /** Injected clock (tests move time). */
  now: () => Date;
}
