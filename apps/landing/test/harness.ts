import { createTestDatabase } from '@erp/db/testing';
import { createLogger } from '@erp/logger';
import { buildApp } from '../src/app';
import type { LandingDeps } from '../src/deps';
import { parseEnv } from '../src/env';
import { createLandingMetrics } from '../src/http/metrics';
import { createPortalPool } from '../src/proxy/portal-pool';

/** The sync key every test landing is configured with. */
export const SYNC_API_KEY = 'test-landing-sync-key-0123456789abcdef';
export const PAYMENT_WEBHOOK_SECRET = 'whsec_test_0123456789abcdef0123456789';

export type TestLanding = Awaited<ReturnType<typeof createTestLanding>>;

/**
 * A landing app on a fresh clone of the migrated test database, configured through `parseEnv`
 * with test values (`overrides` win), logging nothing. `clock.offsetMs` moves `deps.now()`.
 * PORTAL_URL defaults to a closed port: tests that proxy start their own portal stand-in.
 */
export async function createTestLanding(overrides: Record<string, string> = {}) {
  const tdb = await createTestDatabase();
  const env = parseEnv({
    NODE_ENV: 'test',
    DATABASE_URL: tdb.url,
    PORTAL_URL: 'http://127.0.0.1:9',
    LANDING_SYNC_API_KEY: SYNC_API_KEY,
    PAYMENT_WEBHOOK_SECRET,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
  const clock = { offsetMs: 0 };
  const portal = createPortalPool(env);
  const deps: LandingDeps = {
    db: tdb.db,
    pool: tdb.pool,
    env,
    logger: createLogger('silent', 'landing'),
    metrics: createLandingMetrics({ pools: { main: tdb.pool } }),
    portal,
    now: () => new Date(Date.now() + clock.offsetMs),
  };
  const app = buildApp(deps);
  const close = async () => {
    await portal.destroy();
    await tdb.close();
  };
  return { app, deps, db: tdb.db, clock, close };
}
