/**
 * The whole product as an operator runs it: portal, landing and worker as separate
 * processes (their real `src/main.ts`, through tsx) against one cloned test database.
 * No app is imported: they only meet over HTTP and PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { inject } from 'vitest';
import { E2E_PLAN_PRICES } from './stripe-events';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export type AppName = 'portal' | 'landing' | 'worker';

/** Shared keys of one platform, as an operator would configure them. */
export interface PlatformSecrets {
  internalApiKey: string;
  syncApiKey: string;
  paymentSecret: string;
  adminPassword: string;
}

export interface Platform {
  db: TestDatabase;
  portalUrl: string;
  landingUrl: string;
  secrets: PlatformSecrets;
  /** Lines the apps wrote (stdout and stderr), to assert that no secret was logged. */
  output: string[];
  start(app: AppName): Promise<void>;
  stop(app: AppName): Promise<void>;
  close(): Promise<void>;
}

export interface PlatformOptions {
  /** How an app reaches the cloned database (a pooler in between); directly by default. */
  databaseUrl?: (app: AppName, url: string) => string;
}

/** Clones the run's seeded template (plans and tenant `demo`), then starts the three apps. */
export async function startPlatform(
  extraEnv: Partial<Record<AppName, Record<string, string>>> = {},
  options: PlatformOptions = {},
): Promise<Platform> {
  const db = await createTestDatabase();
  const secrets: PlatformSecrets = {
    internalApiKey: randomBytes(24).toString('hex'),
    syncApiKey: randomBytes(24).toString('hex'),
    paymentSecret: `whsec_${randomBytes(24).toString('base64')}`,
    // The seed ran once, into the template (test/global-setup.ts).
    adminPassword: inject('e2eAdminPassword'),
  };
  const [portalPort, landingPort] = [await findFreePort(), await findFreePort()];
  const portalUrl = `http://127.0.0.1:${portalPort}`;
  const landingUrl = `http://127.0.0.1:${landingPort}`;
  const common = { NODE_ENV: 'test', LOG_LEVEL: 'info' };
  const databaseUrl = (app: AppName) => ({
    DATABASE_URL: options.databaseUrl ? options.databaseUrl(app, db.url) : db.url,
  });
  const encryptionKey = randomBytes(32).toString('hex');
  const env: Record<AppName, Record<string, string>> = {
    portal: {
      ...common,
      ...databaseUrl('portal'),
      PORTAL_HOST: '127.0.0.1',
      PORTAL_PORT: String(portalPort),
      API_KEY_HASH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_ENCRYPTION_KEY: encryptionKey,
      SAAS_INTERNAL_API_KEY: secrets.internalApiKey,
      PLATFORM_TENANT: 'demo',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ...extraEnv.portal,
    },
    landing: {
      ...common,
      ...databaseUrl('landing'),
      LANDING_HOST: '127.0.0.1',
      LANDING_PORT: String(landingPort),
      PORTAL_URL: portalUrl,
      LANDING_SYNC_API_KEY: secrets.syncApiKey,
      PAYMENT_PROVIDER: 'stripe',
      PAYMENT_WEBHOOK_SECRET: secrets.paymentSecret,
      PAYMENT_PLAN_PRICES: JSON.stringify(E2E_PLAN_PRICES),
      ...extraEnv.landing,
    },
    worker: {
      ...common,
      ...databaseUrl('worker'),
      SECRETS_ENCRYPTION_KEY: encryptionKey,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WORKER_POLL_INTERVAL_MS: '200',
      PORTAL_URL: portalUrl,
      SAAS_INTERNAL_API_KEY: secrets.internalApiKey,
      LANDING_SYNC_URL: `${landingUrl}/api/erp-sync`,
      LANDING_SYNC_API_KEY: secrets.syncApiKey,
      // The console is the portal's `/`: the links in e-mails point there.
      CONSOLE_URL: portalUrl,
      // Without SMTP_URL, mail is written here (tests that read mail start an SMTP server).
      MAIL_DIR: path.join(tmpdir(), `erp-e2e-mail-${randomBytes(4).toString('hex')}`),
      ...extraEnv.worker,
    },
  };
  const ready: Record<AppName, string | undefined> = {
    portal: `${portalUrl}/api/v1/health`,
    landing: `${landingUrl}/api/health`,
    worker: undefined,
  };
  const running = new Map<AppName, ChildProcess>();
  const output: string[] = [];

  const start = async (app: AppName) => {
    if (running.has(app)) return;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(REPO_ROOT, 'apps', app),
      env: { ...process.env, ...env[app] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.set(app, child);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => output.push(...chunk.split('\n').filter(Boolean)));
    }
    await waitUntilReady(app, child, ready[app], output);
  };
  const stop = async (app: AppName) => {
    const child = running.get(app);
    running.delete(app);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const platform: Platform = {
    db,
    portalUrl,
    landingUrl,
    secrets,
    output,
    start,
    stop,
    async close() {
      await Promise.all([...running.keys()].map(stop));
      await db.close();
    },
  };
  try {
    await Promise.all([start('portal'), start('landing'), start('worker')]);
  } catch (error) {
    await platform.close();
    throw error;
  }
  return platform;
}

/** Polls `until` every 100 ms; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  until: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await until();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitUntilReady(
  app: AppName,
  child: ChildProcess,
  url: string | undefined,
  output: string[],
): Promise<void> {
  await eventually(
    `${app} to start`,
    async () => {
      if (child.exitCode !== null) {
        throw new Error(`${app} exited during start-up:\n${output.slice(-20).join('\n')}`);
      }
      if (!url) return output.some((line) => line.includes('"worker started"'));
      return fetch(url).then(
        (response) => response.ok,
        () => false,
      );
    },
    60_000,
  ).catch((error: Error) => {
    // What the app said is the first thing anyone debugging a start wants to read.
    throw new Error(`${error.message}; its last output:\n${output.slice(-20).join('\n')}`);
  });
}

/** Runs an app's script to its end (the seed); rejects on a non-zero exit. */
export function runToEnd(app: AppName, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: path.join(REPO_ROOT, 'apps', app),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
      // The seed writes the whole catalogue's demo data: ~15 s alone, far more on a busy machine.
      timeout: 180_000,
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${app} ${args.join(' ')}: exit ${code ?? signal}`)),
    );
  });
}
