import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { type Download, launch, type Timings, visit } from './console/browser-run';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { f, table } from './lib/report';
import { type BenchStack, REPO_ROOT, startStack } from './lib/stack';
import { median } from './lib/stats';

/**
 * `pnpm bench console`: the console's JavaScript for the first screen (the login page) as
 * Chromium downloads it from the real portal, and how long the screens people wait for take
 * on the seeded data (medians of several visits, each in a fresh browser context). The
 * console is built first, so what is measured is the source as it is. Knob: BENCH_RUNS.
 */
const settings = { runs: envInt('BENCH_RUNS', 5) };
const BUDGET_GZIP_BYTES = 150 * 1024;

let stack: BenchStack | undefined;
let browser: Browser | undefined;

async function main(): Promise<void> {
  log('building the console (vite build)…');
  await run('pnpm', ['--filter', '@erp/console', 'build']);
  log('starting PostgreSQL, seeding, starting the portal (production)…');
  stack = await startStack({ entry: 'source', ephemeral: true });
  browser = await launch();
  // One visit first, not counted: the portal's caches and JIT, PostgreSQL's buffers.
  await visit(browser, stack.baseUrl, stack.adminPassword);

  const runs: Array<Awaited<ReturnType<typeof visit>>> = [];
  for (let i = 1; i <= settings.runs; i++) {
    const result = await visit(browser, stack.baseUrl, stack.adminPassword);
    runs.push(result);
    log(`  visit ${i}: ${describe(result.timings)}`);
  }
  const first = runs[0]!;
  const scripts = (downloads: Download[]) => downloads.filter((d) => d.type === 'Script');
  const sum = (downloads: Download[], key: keyof Download) =>
    downloads.reduce((total, d) => total + (d[key] as number), 0);
  const firstScripts = scripts(first.firstScreen);
  // What the records browser adds: the scripts not already in the cache, and the catalogue.
  const recordsScripts = scripts(first.records).filter((d) => d.transferBytes > 0);
  const catalogue = first.records.find((d) => d.url.includes('/catalogue.gen-'));

  const name = (url: string) => path.basename(new URL(url).pathname) || '/';
  const sizeRows = (downloads: Download[]) =>
    downloads.map((d) => [
      `${d.type} ${name(d.url)}`,
      d.transferBytes,
      d.contentEncoding ?? 'none',
      d.bodyBytes,
      d.gzipBytes,
    ]);
  console.log(
    '\nFirst screen (/login, empty cache): every download, from the DevTools network log\n',
  );
  console.log(
    table(
      ['resource', 'on the wire B', 'encoding', 'body B', 'gzip -9 B'],
      sizeRows(first.firstScreen),
    ),
  );
  const jsGzip = sum(firstScripts, 'gzipBytes');
  console.log(
    `\nJavaScript of the first screen: ${firstScripts.length} files, ${f(sum(firstScripts, 'bodyBytes') / 1024, 1)} kB, ${f(jsGzip / 1024, 1)} kB gzip (budget ${BUDGET_GZIP_BYTES / 1024} kB: ${jsGzip <= BUDGET_GZIP_BYTES ? 'within' : 'OVER'}); ${f(sum(firstScripts, 'transferBytes') / 1024, 1)} kB on the wire as served`,
  );
  console.log(
    '\nThe sales-order list loaded from its address (logged in, cache warm from the home page)\n',
  );
  console.log(
    table(
      ['resource', 'on the wire B', 'encoding', 'body B', 'gzip -9 B'],
      sizeRows(first.records),
    ),
  );
  console.log(
    `\nThe records browser adds ${recordsScripts.length} script files, ${f(sum(recordsScripts, 'gzipBytes') / 1024, 1)} kB gzip, and the catalogue: ${f((catalogue?.bodyBytes ?? 0) / 1024, 1)} kB, ${f((catalogue?.transferBytes ?? 0) / 1024, 1)} kB on the wire (${catalogue?.contentEncoding ?? 'none'})`,
  );

  const keys = Object.keys(first.timings) as Array<keyof Timings>;
  const medians = Object.fromEntries(
    keys.map((k) => [k, median(runs.map((r) => r.timings[k]))]),
  ) as unknown as Timings;
  const labels: Record<keyof Timings, string> = {
    loginReady: 'navigation to /login → the form rendered',
    loginToHome: 'Log in clicked → the home page rendered',
    reloadToHome: 'reload of / (session from the cookie) → home rendered',
    salesOrdersLoad: 'navigation to /records/sales-orders → the first rows rendered',
    salesOrdersClientSide: 'Sales orders link on the home page → the first rows rendered',
  };
  console.log(`\nTimes, median of ${settings.runs} visits in fresh browser contexts (ms)\n`);
  console.log(
    table(
      ['step', 'median ms', 'min', 'max'],
      keys.map((k) => {
        const values = runs.map((r) => r.timings[k]);
        return [labels[k], f(medians[k]), f(Math.min(...values)), f(Math.max(...values))];
      }),
    ),
  );
  await writeResults('console', { settings, runs, medians });
}

function describe(t: Timings): string {
  return Object.entries(t)
    .map(([k, v]) => `${k} ${f(v)} ms`)
    .join(', ');
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: exit ${code}`)),
    );
  });
}

runBench('console', main, async () => {
  await browser?.close().catch(() => {});
  await stack?.stop();
});
