import { envInt, log, runBench, writeResults } from './lib/cli';
import { f, table } from './lib/report';
import { median } from './lib/stats';
import { type BundleSize, bundleSize, ENTRIES } from './sdk/bundle-size';
import { CLIENTS, measureCallOverhead } from './sdk/call-overhead';
import { type EchoServer, startEchoServer } from './sdk/echo-server';
import {
  MODULE_ENTRY,
  prepareConsumers,
  STRIPE,
  type TypeCheck,
  typeCheck,
} from './sdk/type-check';

/**
 * `pnpm bench sdk`: the sdk's size as an integrator's bundler ships it, next to
 * openapi-fetch's; the per-call cost of the client over a bare fetch to the same local
 * server; an integrator's type-check of a fixed file against the sdk and against Stripe's
 * types; in one run. Knobs: BENCH_ROUNDS, BENCH_CALLS, BENCH_WARMUP_CALLS, BENCH_TSC_ROUNDS,
 * BENCH_SDK_SECTIONS, BENCH_SDK_BASELINE, BENCH_SDK_SRC (README.md).
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 7),
  calls: envInt('BENCH_CALLS', 2000),
  warmupCalls: envInt('BENCH_WARMUP_CALLS', 1000),
  tscRounds: envInt('BENCH_TSC_ROUNDS', 5),
  sections: (process.env.BENCH_SDK_SECTIONS ?? 'size,calls,types').split(','),
};
const SIZE_BUDGET_BYTES = 6 * 1024;
/** Issue 30's bar for the integrator's type-check through a module's entry. */
const TYPE_CHECK_BAR = { seconds: 2, rssMb: 250 };

let server: EchoServer | undefined;

async function main(): Promise<void> {
  const results: Record<string, unknown> = { settings };
  if (settings.sections.includes('size')) results.sizes = await sizeSection();
  if (settings.sections.includes('calls')) Object.assign(results, await callSection());
  if (settings.sections.includes('types')) results.typeChecks = await typeCheckSection();
  await writeResults('sdk', results);
}

async function sizeSection(): Promise<BundleSize[]> {
  log('bundling (esbuild, minified) and gzipping…');
  const sizes: BundleSize[] = [];
  for (const entry of Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>)
    sizes.push(await bundleSize(entry));
  const full = sizes[0]!;
  console.log(`\nSize (esbuild bundle of an entry exporting what it names, minified, gzip -9)\n`);
  console.log(
    table(
      ['bundle', 'minified B', 'min+gzip B'],
      sizes.map((s) => [s.entry, s.minifiedBytes, s.gzipBytes]),
    ),
  );
  console.log(
    `\nsdk with everything: ${f(full.gzipBytes / 1024, 2)} kB min+gzip (budget ${SIZE_BUDGET_BYTES / 1024} kB: ${full.gzipBytes <= SIZE_BUDGET_BYTES ? 'within' : 'OVER'})`,
  );
  return sizes;
}

async function callSection() {
  server = await startEchoServer();
  log(
    `server at ${server.baseUrl}; ${settings.rounds} rounds × ${settings.calls} calls per client…`,
  );
  const rounds = await measureCallOverhead(server.baseUrl, settings, (round, m) =>
    log(`  round ${round}: ${CLIENTS.map((c) => `${c} ${f(m[c], 1)} µs`).join(', ')}`),
  );
  await server.stop();
  server = undefined;
  const result = Object.fromEntries(
    CLIENTS.map((c) => [c, median(rounds.map((r) => r[c]))]),
  ) as Record<(typeof CLIENTS)[number], number>;
  const bare = result['bare fetch'];
  console.log(
    `\nPer-call time, sequential GETs to one local node:http server (median of ${settings.rounds} round medians)\n`,
  );
  console.log(
    table(
      ['client', 'median µs/call', 'over bare fetch µs', 'ratio'],
      CLIENTS.map((c) => [c, f(result[c], 1), f(result[c] - bare, 1), f(result[c] / bare, 3)]),
    ),
  );
  return { rounds, result };
}

/**
 * The integrator's type-check: each consumer's project checked by `tsc` in a process of its
 * own, consumers interleaved round by round (the first of each round rotates), after one
 * unrecorded warm-up each (file cache); medians of the rounds.
 */
async function typeCheckSection() {
  const { dirs, cleanup } = await prepareConsumers(process.env.BENCH_SDK_BASELINE);
  const consumers = Object.keys(dirs);
  try {
    log(`type-checking ${consumers.length} consumers, ${settings.tscRounds} rounds…`);
    for (const consumer of consumers) await typeCheck(dirs[consumer]!);
    const rounds: Array<Record<string, TypeCheck>> = [];
    for (let round = 0; round < settings.tscRounds; round++) {
      const order = consumers.map((_, i) => consumers[(i + round) % consumers.length]!);
      const measured: Record<string, TypeCheck> = {};
      for (const consumer of order) measured[consumer] = await typeCheck(dirs[consumer]!);
      rounds.push(measured);
      log(
        `  round ${round + 1}: ${consumers.map((c) => `${c} ${f(measured[c]!.wallSeconds, 2)} s ${f(measured[c]!.maxRssMb)} MB`).join(', ')}`,
      );
    }
    const medians = Object.fromEntries(
      consumers.map((c) => {
        const of = (key: keyof TypeCheck) => median(rounds.map((r) => r[c]![key]));
        return [
          c,
          {
            wallSeconds: of('wallSeconds'),
            totalSeconds: of('totalSeconds'),
            checkSeconds: of('checkSeconds'),
            instantiations: of('instantiations'),
            heapMb: of('heapMb'),
            maxRssMb: of('maxRssMb'),
          },
        ];
      }),
    ) as Record<string, TypeCheck>;
    const stripe = medians[STRIPE]!;
    console.log(
      `\nAn integrator's type-check: tsc --noEmit of bench/src/sdk/consumer/*.ts in a fresh project (median of ${settings.tscRounds} rounds)\n`,
    );
    console.log(
      table(
        [
          'consumer',
          'wall s',
          'tsc total s',
          'check s',
          'instantiations',
          'heap MB',
          'max RSS MB',
          'wall × stripe',
          'RSS × stripe',
        ],
        consumers.map((c) => {
          const m = medians[c]!;
          return [
            c,
            f(m.wallSeconds, 2),
            f(m.totalSeconds, 2),
            f(m.checkSeconds, 2),
            m.instantiations,
            f(m.heapMb),
            f(m.maxRssMb),
            f(m.wallSeconds / stripe.wallSeconds, 2),
            f(m.maxRssMb / stripe.maxRssMb, 2),
          ];
        }),
      ),
    );
    const sales = medians[MODULE_ENTRY]!;
    const within =
      sales.wallSeconds <= TYPE_CHECK_BAR.seconds && sales.maxRssMb <= TYPE_CHECK_BAR.rssMb;
    console.log(
      `\nsdk through a module's entry: ${f(sales.wallSeconds, 2)} s, ${f(sales.maxRssMb)} MB (bar ≤ ${TYPE_CHECK_BAR.seconds} s and ≤ ${TYPE_CHECK_BAR.rssMb} MB: ${within ? 'within' : 'OVER'})`,
    );
    return { rounds, medians };
  } finally {
    await cleanup();
  }
}

runBench('sdk', main, () => server?.stop());
