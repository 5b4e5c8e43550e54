/**
 * `pnpm dev`: one command for the whole platform. Embedded PostgreSQL (unless
 * DATABASE_URL is set), persisted dev secrets, migrations, the demo seed, then every
 * app's `dev` script through turbo. The banner comes once every app answers; an app that
 * cannot start stops everything with one line saying which and why. Ctrl-C stops the apps
 * first, then PostgreSQL.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { formatBanner } from './banner';
import { migrate, provideDatabase } from './database';
import { runCommand, startApps } from './processes';
import { type AppProbe, describeFailures, watchStart } from './readiness';
import { type DevSecrets, loadDevSecrets } from './secrets';

const ADMIN_EMAIL = 'admin@demo.test';
const repoRoot = path.resolve(import.meta.dirname, '../../..');
// DEV_DATA_DIR moves everything `pnpm dev` keeps (tests use a directory of their own).
const dataRoot = path.resolve(repoRoot, process.env.DEV_DATA_DIR || '.data');
const secretsFile = path.join(dataRoot, 'dev-secrets.json');

/** Why `pnpm dev` gave up: told last, once everything has stopped, so it is the line seen. */
let failure: string | undefined;

async function main(): Promise<number> {
  const { secrets, created } = await loadDevSecrets(secretsFile, process.env);
  log(
    created ? `generated dev secrets in ${secretsFile}` : `using dev secrets from ${secretsFile}`,
  );
  const database = await provideDatabase(dataRoot, process.env.DATABASE_URL);
  log(database.embedded ? 'embedded PostgreSQL is up' : 'using DATABASE_URL');
  let code = 1;
  let replica: import('@erp/db/standby').Standby | undefined;
  try {
    log(`migrations: ${await migrate(database.url)} applied`);
    const seedEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      SEED_ADMIN_PASSWORD: secrets.SEED_ADMIN_PASSWORD,
    };
    const seeded = await runCommand(
      'pnpm',
      ['--silent', '--filter', '@erp/portal', 'seed'],
      seedEnv,
    );
    if (seeded !== 0) throw new Error(`seed failed (exit code ${seeded})`);
    // DEV_REPLICA=1: a hot standby of the embedded database, the portal reading on it (SPEC §19).
    if (process.env.DEV_REPLICA === '1' && database.embedded) {
      const { startStandby } = await import('@erp/db/standby');
      const primary = new URL(database.url);
      primary.pathname = '/postgres';
      replica = await startStandby({
        primaryUrl: primary.toString(),
        primaryDataDir: path.join(dataRoot, 'postgres'),
        dataDir: path.join(dataRoot, 'postgres-replica'),
        slot: 'dev_replica',
      });
      log(`read replica (hot standby) on port ${replica.port}`);
    }
    const env = appEnv(database.url, secrets, replica?.urlFor('erp'));
    const probes = appProbes(env);
    // The last session's console build would answer the console's probe before this session's
    // watch build has emptied the directory (Vite's emptyOutDir), which then answers 503 until
    // it is written again: the banner waits for this session's build.
    if (env.CONSOLE_DIR) await rm(env.CONSOLE_DIR, { recursive: true, force: true });
    let watch: ReturnType<typeof watchStart> | undefined;
    const apps = startApps({ repoRoot, env, onLine: (line) => watch?.onLine(line) });
    watch = watchStart({ apps: probes, exited: apps.exited });
    const outcome = await watch.outcome;
    if (!outcome.ready) {
      failure = describeFailures(outcome.failures);
      await apps.stop();
      return 1;
    }
    process.stdout.write(banner(env, probes, database, secrets));
    code = await apps.exited;
  } finally {
    await replica?.remove();
    if (database.embedded) log('stopping PostgreSQL');
    await database.stop();
  }
  return code;
}

/** The environment every app starts with; values already set in the shell win. */
function appEnv(
  databaseUrl: string,
  secrets: DevSecrets,
  replicaUrl?: string,
): Record<string, string | undefined> {
  const { SEED_ADMIN_PASSWORD: _password, ...appSecrets } = secrets;
  const landingPort = process.env.LANDING_PORT ?? '3001';
  return {
    // Dev secrets must not be reachable from the network: listen on loopback only.
    PORTAL_HOST: '127.0.0.1',
    LANDING_HOST: '127.0.0.1',
    WORKER_HEALTH_HOST: '127.0.0.1',
    // The worker's liveness signal is how `pnpm dev` knows it runs (the image's port); it
    // serves the worker's /metrics too. Portal and landing serve theirs on ports of their own.
    WORKER_HEALTH_PORT: '3002',
    PORTAL_METRICS_PORT: '9464',
    LANDING_METRICS_PORT: '9465',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // A provider on this machine (Keycloak, oidc-provider) can be tried over plain http.
    SSO_ALLOW_INSECURE_ISSUERS: 'true',
    // The seeded tenant is the platform operator's: its super-admin edits Settings → Portal access.
    PLATFORM_TENANT: 'demo',
    PAYMENT_PROVIDER: 'stripe',
    PORTAL_URL: `http://127.0.0.1:${process.env.PORTAL_PORT ?? '3000'}`,
    LANDING_SYNC_URL: `http://127.0.0.1:${landingPort}/api/erp-sync`,
    // The worker's e-mails (no SMTP in development): written to .data/mail, their links (to
    // the console, the portal's `/`) printed in its log.
    CONSOLE_URL: `http://127.0.0.1:${process.env.PORTAL_PORT ?? '3000'}`,
    MAIL_DIR: path.join(dataRoot, 'mail'),
    TURBO_TELEMETRY_DISABLED: '1',
    // The console's watch build (apps/console's `dev`) and the portal that serves it share this
    // directory, kept out of apps/console/dist, which builds, images and tests read.
    CONSOLE_DIR: path.join(dataRoot, 'console'),
    ...process.env,
    ...appSecrets,
    DATABASE_URL: databaseUrl,
    ...(replicaUrl ? { DATABASE_REPLICA_URLS: replicaUrl } : {}),
    NODE_ENV: 'development',
  };
}

/**
 * What must answer before the banner: each app's own health route, and the console's page once
 * its first build is there (the portal answers 503 until then).
 */
function appProbes(env: Record<string, string | undefined>): AppProbe[] {
  const local = (port: string | undefined, fallback: string) =>
    `http://127.0.0.1:${port || fallback}`;
  return [
    { name: 'portal', healthUrl: `${local(env.PORTAL_PORT, '3000')}/api/v1/health` },
    { name: 'console', healthUrl: `${local(env.PORTAL_PORT, '3000')}/` },
    { name: 'landing', healthUrl: `${local(env.LANDING_PORT, '3001')}/api/health` },
    { name: 'worker', healthUrl: `${local(env.WORKER_HEALTH_PORT, '3002')}/health` },
  ];
}

/** Each app's GET /metrics (Prometheus), as the environment places them. */
function metricsUrls(env: Record<string, string | undefined>): string[] {
  return [env.PORTAL_METRICS_PORT, env.LANDING_METRICS_PORT, env.WORKER_HEALTH_PORT].map(
    (port) => `http://127.0.0.1:${port}/metrics`,
  );
}

function banner(
  env: Record<string, string | undefined>,
  probes: readonly AppProbe[],
  database: { url: string; embedded: boolean },
  secrets: DevSecrets,
): string {
  const origin = (name: string) => new URL(probes.find((p) => p.name === name)!.healthUrl).origin;
  return formatBanner({
    portalUrl: origin('portal'),
    landingUrl: origin('landing'),
    workerHealthUrl: probes.find((p) => p.name === 'worker')!.healthUrl,
    metricsUrls: metricsUrls(env),
    databaseUrl: database.url,
    embedded: database.embedded,
    dataDir: shown(path.join(dataRoot, 'postgres')),
    adminEmail: ADMIN_EMAIL,
    adminPassword: secrets.SEED_ADMIN_PASSWORD,
    passwordSource: process.env.SEED_ADMIN_PASSWORD
      ? 'from SEED_ADMIN_PASSWORD'
      : `kept in ${shown(secretsFile)}`,
  });
}

/** A path as the developer would type it from the repository root. */
function shown(file: string): string {
  const relative = path.relative(repoRoot, file);
  return relative.startsWith('..') ? file : relative;
}

function log(message: string): void {
  process.stdout.write(`dev: ${message}\n`);
}

main().then(
  (code) => {
    if (failure) process.stderr.write(`dev: ${failure}\n`);
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`dev: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
