/**
 * The real `pnpm dev` entry (tsx tooling/dev/src/dev.ts), in a data directory and on ports of
 * its own: an app that cannot start ends it with one line; a normal start shows the banner
 * and no warning, error or stack trace. The two share one data directory (one initdb).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(repoRoot, 'node_modules/.bin/tsx');
/**
 * Start-up on two cores shared with every other package's tests (turbo runs them together),
 * tsx compiling three apps and Vite building the console: generous, still a bound.
 */
const START_BOUND_MS = 240_000;

let dataDir: string;
const running: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'erp-dev-test-'));
  // Run as root, PostgreSQL runs as a `postgres` user, which must reach its directory in here.
  await chmod(dataDir, 0o755);
});
// A test that failed half-way leaves its `pnpm dev` running: stop it as Ctrl-C would (the apps,
// then PostgreSQL) so the next test does not find the data directory's PostgreSQL still up.
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(child, 'SIGINT');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
  }
});
afterAll(async () => {
  for (const child of running) if (child.exitCode === null) signalGroup(child, 'SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface DevRun {
  child: ChildProcess;
  /** stdout and stderr, interleaved as they came. */
  output: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  ports: {
    portal: number;
    landing: number;
    worker: number;
    portalMetrics: number;
    landingMetrics: number;
  };
}

async function startDev(extra: Record<string, string> = {}): Promise<DevRun> {
  const ports = {
    portal: await freePort(),
    landing: await freePort(),
    worker: await freePort(),
    portalMetrics: await freePort(),
    landingMetrics: await freePort(),
  };
  const child = spawn(tsx, ['tooling/dev/src/dev.ts'], {
    cwd: repoRoot,
    env: {
      ...cleanEnv(),
      DEV_DATA_DIR: dataDir,
      PORTAL_PORT: String(ports.portal),
      LANDING_PORT: String(ports.landing),
      WORKER_HEALTH_PORT: String(ports.worker),
      PORTAL_METRICS_PORT: String(ports.portalMetrics),
      LANDING_METRICS_PORT: String(ports.landingMetrics),
      ...extra,
    },
    // Its own group: cleanup can reach whatever it leaves behind.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const all: string[] = [];
  const errors: string[] = [];
  child.stdout?.on('data', (chunk) => all.push(String(chunk)));
  child.stderr?.on('data', (chunk) => {
    all.push(String(chunk));
    errors.push(String(chunk));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => all.join(''), stderr: () => errors.join(''), exited, ports };
}

describe('pnpm dev', () => {
  it('exits non-zero with one line naming landing and the variable when landing cannot start', async () => {
    const started = Date.now();
    const dev = await startDev({ LANDING_SYNC_API_KEY: 'k'.repeat(20) });
    const code = await within(dev.exited, START_BOUND_MS, dev.output);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.info(
      `pnpm dev with a 20-character LANDING_SYNC_API_KEY exited ${code} in ${seconds} s`,
    );
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    const own = dev
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('dev: '));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/^dev: .*\blanding\b.* cannot start: .*LANDING_SYNC_API_KEY/);
    expect(own[0]).not.toContain('k'.repeat(20));
    expect(dev.output()).not.toContain('Portal     http');
    // Everything stopped: the apps, then the embedded PostgreSQL.
    expect(dev.output()).toContain('dev: stopping PostgreSQL');
    expect(existsSync(path.join(dataDir, 'postgres/postmaster.pid'))).toBe(false);
    // Freed once the portal has gone (a busy machine may take a moment to close its socket).
    let held = await listening(dev.ports.portal);
    for (let i = 0; held && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 250));
      held = await listening(dev.ports.portal);
    }
    expect(held).toBe(false);
  });

  it('starts everything with a banner, without a warning, an error or a stack trace, and stops on Ctrl-C', async () => {
    // The last session's console build, still in the data directory.
    await mkdir(path.join(dataDir, 'console'), { recursive: true });
    await writeFile(
      path.join(dataDir, 'console/index.html'),
      '<!doctype html><title>stale</title>',
    );
    const dev = await startDev();
    await within(
      waitForText(dev, 'Ctrl-C stops the apps, then PostgreSQL.'),
      START_BOUND_MS,
      dev.output,
    );
    // The start-up push has gone through: everything a start does has been done.
    await within(waitForText(dev, 'erp sync pushed'), 60_000, dev.output);
    const output = dev.output();
    const plain = output.replace(ANSI, '');
    // The banner waits for this session's console build, not the previous test's, which the
    // watch build empties once it starts (the portal would answer 503 until it is rewritten).
    const built = plain.indexOf('@erp/console:dev: built in');
    expect(built).toBeGreaterThan(-1);
    expect(built).toBeLessThan(plain.indexOf('Ctrl-C stops the apps, then PostgreSQL.'));
    expect(output).toContain(`Console    http://127.0.0.1:${dev.ports.portal}/ `);
    expect(output).toContain(`Pages      http://127.0.0.1:${dev.ports.landing}/ `);
    expect(output).toContain(`Portal     http://127.0.0.1:${dev.ports.portal}`);
    expect(output).toContain(`Landing    http://127.0.0.1:${dev.ports.landing}`);
    // The console's watch build is served by the portal at its `/`.
    const page = await fetch(`http://127.0.0.1:${dev.ports.portal}/settings/api-keys`);
    const body = await page.text();
    expect(page.status, `${body}\n${dev.output().slice(-3000)}`).toBe(200);
    expect(body).toMatch(/<script type="module"[^>]* src="\/assets\//);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Built into the data directory: apps/console/dist, which tests and images read, is left alone.
    expect(existsSync(path.join(dataDir, 'console/index.html'))).toBe(true);
    expect(output).toContain(`Worker     http://127.0.0.1:${dev.ports.worker}/health`);
    // Every app's metrics, where the banner says.
    const metrics = [dev.ports.portalMetrics, dev.ports.landingMetrics, dev.ports.worker].map(
      (port) => `http://127.0.0.1:${port}/metrics`,
    );
    expect(output).toContain(`Metrics    ${metrics.join('  ')}`);
    for (const url of metrics) {
      const scrape = await fetch(url);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('db_pool_connections');
    }
    // Development logs are readable lines (pino-pretty), coloured, never JSON.
    expect(plain).toMatch(/\] INFO: portal listening/);
    expect(plain).not.toMatch(/^@erp\/\w+:dev: \{"level"/m);
    const complaints = plain
      .split('\n')
      .filter((line) => /\] (WARN|ERROR|FATAL):/.test(line) || /\bat .+:\d+:\d+\)?/.test(line));
    expect(complaints).toEqual([]);

    dev.child.kill('SIGINT');
    expect(await within(dev.exited, 60_000, dev.output)).toBe(0);
    expect(dev.output()).toContain('dev: stopping PostgreSQL');
    expect(existsSync(path.join(dataDir, 'postgres/postmaster.pid'))).toBe(false);
  });
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every colour sequence.
const ANSI = /\u001b\[[0-9;]*m/g;

/** The environment of a developer's shell: none of the test runner's or the outer dev's. */
function cleanEnv(): NodeJS.ProcessEnv {
  const dropped =
    /^(npm_|PNPM_|TURBO_|VITEST|NODE_OPTIONS$|INIT_CWD$|DATABASE_URL$|PORTAL_|LANDING_|WORKER_|SEED_|DEV_DATA_DIR$)/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.test(name)));
}

async function within<T>(promise: Promise<T>, ms: number, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not within ${ms / 1000} s; output:\n${output().slice(-4000)}`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForText(dev: DevRun, text: string): Promise<void> {
  while (!dev.output().includes(text)) {
    if (dev.child.exitCode !== null) throw new Error(`pnpm dev exited:\n${dev.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createServer().listen(port, '127.0.0.1');
    socket.once('listening', () => socket.close(() => resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Gone already.
  }
}
