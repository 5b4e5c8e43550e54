/**
 * `pnpm dev`: one command for the whole platform. Embedded PostgreSQL (unless
 * DATABASE_URL is set), persisted dev secrets, migrations, the demo seed, then every
 * app's `dev` script through turbo. Ctrl-C stops the apps first, then PostgreSQL.
 */
import path from 'node:path';
import { formatBanner, waitForPortal } from './banner';
import { migrate, provideDatabase } from './database';
import { runCommand, startApps } from './processes';
import { type DevSecrets, loadDevSecrets } from './secrets';

const ADMIN_EMAIL = 'admin@demo.test';
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataRoot = path.join(repoRoot, '.data');
const secretsFile = path.join(dataRoot, 'dev-secrets.json');

async function main(): Promise<number> {
  const { secrets, created } = await loadDevSecrets(secretsFile, process.env);
  log(
    created ? `generated dev secrets in ${secretsFile}` : `using dev secrets from ${secretsFile}`,
  );
  const database = await provideDatabase(dataRoot, process.env.DATABASE_URL);
  log(database.embedded ? 'embedded PostgreSQL is up' : 'using DATABASE_URL');
  let code = 1;
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
    const apps = startApps(repoRoot, appEnv(database.url, secrets));
    let running = true;
    void apps.exited.finally(() => {
      running = false;
    });
    void announce(localPortalUrl(), database, secrets, () => running);
    code = await apps.exited;
  } finally {
    if (database.embedded) log('stopping PostgreSQL');
    await database.stop();
  }
  return code;
}

/** The environment every app starts with; values already set in the shell win. */
function appEnv(databaseUrl: string, secrets: DevSecrets): Record<string, string | undefined> {
  const { SEED_ADMIN_PASSWORD: _password, ...appSecrets } = secrets;
  const landingPort = process.env.LANDING_PORT ?? '3001';
  return {
    // Dev secrets must not be reachable from the network: listen on loopback only.
    PORTAL_HOST: '127.0.0.1',
    LANDING_HOST: '127.0.0.1',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // The seeded tenant is the platform operator's: its super-admin edits Settings → Portal access.
    PLATFORM_TENANT: 'demo',
    PAYMENT_PROVIDER: 'stripe',
    PORTAL_URL: localPortalUrl(),
    LANDING_SYNC_URL: `http://127.0.0.1:${landingPort}/api/erp-sync`,
    TURBO_TELEMETRY_DISABLED: '1',
    ...process.env,
    ...appSecrets,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
  };
}

function localPortalUrl(): string {
  return `http://127.0.0.1:${process.env.PORTAL_PORT ?? '3000'}`;
}

async function announce(
  portalUrl: string,
  database: { url: string; embedded: boolean },
  secrets: DevSecrets,
  stillRunning: () => boolean,
): Promise<void> {
  const ready = await waitForPortal(portalUrl, stillRunning);
  if (!stillRunning()) return;
  if (!ready) log(`the portal did not answer ${portalUrl}/api/v1/health within 60 s`);
  process.stdout.write(
    formatBanner({
      portalUrl,
      landingUrl: `http://127.0.0.1:${process.env.LANDING_PORT ?? '3001'}`,
      databaseUrl: database.url,
      embedded: database.embedded,
      adminEmail: ADMIN_EMAIL,
      adminPassword: secrets.SEED_ADMIN_PASSWORD,
      passwordSource: process.env.SEED_ADMIN_PASSWORD
        ? 'from SEED_ADMIN_PASSWORD'
        : `kept in ${path.relative(repoRoot, secretsFile)}`,
    }),
  );
}

function log(message: string): void {
  process.stdout.write(`dev: ${message}\n`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`dev: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
