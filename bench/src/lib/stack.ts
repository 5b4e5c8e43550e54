import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { startDatabase } from './database';
import { type PortalEntry, startPortal } from './server-process';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
export const PORTAL_DIR = path.join(REPO_ROOT, 'apps/portal');
const DATABASE = 'erp_bench';

/** What the benchmark runs against; `stop` is safe to call whatever was started. */
export interface BenchStack {
  databaseUrl: string;
  baseUrl: string;
  portalPid: number;
  postmasterPid: number;
  /** The PostgreSQL data directory (a hot standby is copied from it). */
  dataDir: string;
  /** The portal's environment (secrets included): another portal started with it accepts the same keys. */
  portalEnv: Record<string, string>;
  apiKeyHashSecret: string;
  /** The portal's SAAS_INTERNAL_API_KEY (X-API-Key of the internal provisioning routes). */
  internalApiKey: string;
  adminPassword: string;
  postgresVersion: string;
  /** Registers a clean-up step (say, another server): run before the portal and PostgreSQL stop. */
  onStop(step: () => Promise<unknown>): void;
  stop(): Promise<void>;
}

/** How to run what the benchmark measures. */
export interface StackOptions {
  entry: PortalEntry;
  /** fsync and synchronous commit off; by default the cluster is durable, as in production. */
  ephemeral: boolean;
}

/**
 * An embedded PostgreSQL, migrated and seeded, and the real portal in production mode as a
 * child process.
 */
export async function startStack(options: StackOptions): Promise<BenchStack> {
  const stops: Array<() => Promise<unknown>> = [];
  // Last started, first stopped; each step runs once even if `stop` is called twice.
  const stop = async () => {
    while (stops.length) await stops.pop()!().catch(() => {});
  };
  try {
    const database = await startDatabase(DATABASE, options.ephemeral);
    stops.push(() => database.stop());
    const { url: databaseUrl, postmasterPid, postgresVersion } = database;
    const adminPassword = randomBytes(12).toString('hex');
    // The portal's own seed script: plans and tenant `demo` with admin@demo.test (super-admin).
    await runNode(['--import', 'tsx', 'seed/main.ts'], {
      DATABASE_URL: databaseUrl,
      SEED_ADMIN_PASSWORD: adminPassword,
    });

    const apiKeyHashSecret = randomBytes(32).toString('hex');
    const jwt = generateKeyPairSync('ed25519', {
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const internalApiKey = randomBytes(32).toString('hex');
    const port = await findFreePort();
    const portalEnv: Record<string, string> = {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORTAL_HOST: '127.0.0.1',
      PORTAL_PORT: String(port),
      LOG_LEVEL: 'warn',
      JWT_PRIVATE_KEY: jwt.privateKey,
      JWT_PUBLIC_KEY: jwt.publicKey,
      API_KEY_HASH_SECRET: apiKeyHashSecret,
      SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SAAS_INTERNAL_API_KEY: internalApiKey,
    };
    const portal = await startPortal(PORTAL_DIR, port, portalEnv, options.entry);
    stops.push(() => portal.stop());

    return {
      databaseUrl,
      baseUrl: portal.baseUrl,
      portalPid: portal.pid,
      postmasterPid,
      dataDir: database.dataDir,
      portalEnv,
      apiKeyHashSecret,
      internalApiKey,
      adminPassword,
      postgresVersion,
      onStop: (step) => stops.push(step),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs a script of the portal with tsx and waits for it (bounded: 60 s). */
function runNode(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PORTAL_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 60_000,
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')}: exit ${code ?? signal}`)),
    );
  });
}
