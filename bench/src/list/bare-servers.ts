import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { type ServerProcess, serverNodeArgs, startServerProcess } from '../lib/server-process';

/** The portal's layers a bare server can add. */
export type Layer = 'auth' | 'rls' | 'work';

export interface BareServerOptions {
  databaseUrl: string;
  tenantId: string;
  resource: string;
  /** Path and query string the server answers, e.g. `/sales-orders?status=eq.confirme`. */
  path: string;
  apiKeyHashSecret: string;
}

const SCRIPT = path.join(import.meta.dirname, 'bare-server.ts');

/**
 * Starts bare-server.ts in its own process (through tsx, like the portal) with these layers.
 * `BENCH_BARE_CPU_PROF=1` writes a V8 CPU profile of each when it stops, in
 * bench/results/bare-cpu-profiles (beside the portal's, to compare the two under one load).
 */
export async function startBareServer(
  layers: Layer[],
  o: BareServerOptions,
): Promise<ServerProcess> {
  const port = await findFreePort();
  const profile =
    process.env.BENCH_BARE_CPU_PROF === '1'
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${path.resolve(import.meta.dirname, '../../results/bare-cpu-profiles')}`,
          `--cpu-prof-name=bare-${layers.join('+') || 'none'}-${Date.now()}.cpuprofile`,
        ]
      : [];
  return startServerProcess({
    name: `bare server (${layers.join('+') || 'no layer'})`,
    cwd: import.meta.dirname,
    args: [...profile, ...serverNodeArgs(), '--import', 'tsx', SCRIPT],
    env: {
      NODE_ENV: 'production',
      BARE_LAYERS: layers.join(','),
      BARE_PORT: String(port),
      BARE_PATH: o.path,
      BARE_RESOURCE: o.resource,
      BARE_TENANT_ID: o.tenantId,
      BARE_DATABASE_URL: o.databaseUrl,
      BARE_API_KEY_HASH_SECRET: o.apiKeyHashSecret,
    },
    port,
    readyPath: '/health',
  });
}
