import { envInt, log, runBench, writeResults } from './lib/cli';
import { f, table } from './lib/report';
import { median } from './lib/stats';
import { type BundleSize, bundleSize, ENTRIES } from './sdk/bundle-size';
import { CLIENTS, measureCallOverhead } from './sdk/call-overhead';
import { type EchoServer, startEchoServer } from './sdk/echo-server';

/**
 * `pnpm bench sdk`: the sdk's size as an integrator's bundler ships it, next to
 * openapi-fetch's, and the per-call cost of the client over a bare fetch to the same local
 * server, in one run. Knobs: BENCH_ROUNDS, BENCH_CALLS, BENCH_WARMUP_CALLS (README.md).
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 7),
  calls: envInt('BENCH_CALLS', 2000),
  warmupCalls: envInt('BENCH_WARMUP_CALLS', 1000),
};
const SIZE_BUDGET_BYTES = 6 * 1024;

let server: EchoServer | undefined;

async function main(): Promise<void> {
  log('bundling (esbuild, minified) and gzipping…');
  const sizes: BundleSize[] = [];
  for (const entry of Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>)
    sizes.push(await bundleSize(entry));
  const full = sizes[0]!;
  const sizeReport = table(
    ['bundle', 'minified B', 'min+gzip B'],
    sizes.map((s) => [s.entry, s.minifiedBytes, s.gzipBytes]),
  );

  server = await startEchoServer();
  log(
    `server at ${server.baseUrl}; ${settings.rounds} rounds × ${settings.calls} calls per client…`,
  );
  const rounds = await measureCallOverhead(server.baseUrl, settings, (round, m) =>
    log(`  round ${round}: ${CLIENTS.map((c) => `${c} ${f(m[c], 1)} µs`).join(', ')}`),
  );
  const result = Object.fromEntries(
    CLIENTS.map((c) => [c, median(rounds.map((r) => r[c]))]),
  ) as Record<(typeof CLIENTS)[number], number>;
  const bare = result['bare fetch'];
  const overheadReport = table(
    ['client', 'median µs/call', 'over bare fetch µs', 'ratio'],
    CLIENTS.map((c) => [c, f(result[c], 1), f(result[c] - bare, 1), f(result[c] / bare, 3)]),
  );

  console.log(`\nSize (esbuild bundle of an entry exporting what it names, minified, gzip -9)\n`);
  console.log(sizeReport);
  console.log(
    `\nsdk with everything: ${f(full.gzipBytes / 1024, 2)} kB min+gzip (budget ${SIZE_BUDGET_BYTES / 1024} kB: ${full.gzipBytes <= SIZE_BUDGET_BYTES ? 'within' : 'OVER'})`,
  );
  console.log(
    `\nPer-call time, sequential GETs to one local node:http server (median of ${settings.rounds} round medians)\n`,
  );
  console.log(overheadReport);
  await writeResults('sdk', { settings, sizes, rounds, result });
}

runBench('sdk', main, () => server?.stop());
