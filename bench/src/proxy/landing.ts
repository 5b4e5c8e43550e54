import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { type PortalEntry, type ServerProcess, startServerProcess } from '../lib/server-process';
import { REPO_ROOT } from '../lib/stack';

export const LANDING_DIR = path.join(REPO_ROOT, 'apps/landing');

/**
 * Starts the real landing server like the portal: `source` runs src/main.ts through tsx,
 * `dist` runs dist/main.js (needs `pnpm --filter @erp/landing build` first). Production mode,
 * its own secrets (random: nothing here uses them), logs at `warn`, bound to 127.0.0.1.
 */
export async function startLanding(
  portalUrl: string,
  databaseUrl: string,
  entry: PortalEntry,
): Promise<ServerProcess> {
  if (entry === 'dist' && !existsSync(path.join(LANDING_DIR, 'dist/main.js'))) {
    throw new Error('apps/landing/dist/main.js is missing: run `pnpm --filter @erp/landing build`');
  }
  const port = await findFreePort();
  return startServerProcess({
    name: 'landing',
    cwd: LANDING_DIR,
    args: entry === 'dist' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'],
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      LANDING_HOST: '127.0.0.1',
      LANDING_PORT: String(port),
      PORTAL_URL: portalUrl,
      LOG_LEVEL: 'warn',
      LANDING_SYNC_API_KEY: randomBytes(24).toString('hex'),
      PAYMENT_WEBHOOK_SECRET: randomBytes(24).toString('hex'),
    },
    port,
    readyPath: '/api/health',
  });
}

/** The floor proxy (floor-proxy.ts) through tsx, in front of `portalUrl`. */
export async function startFloorProxy(portalUrl: string): Promise<ServerProcess> {
  const port = await findFreePort();
  return startServerProcess({
    name: 'floor proxy',
    cwd: import.meta.dirname,
    args: ['--import', 'tsx', path.join(import.meta.dirname, 'floor-proxy.ts')],
    env: { NODE_ENV: 'production', FLOOR_PORT: String(port), FLOOR_UPSTREAM: portalUrl },
    port,
    readyPath: '/health',
  });
}
