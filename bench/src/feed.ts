import { bareSqlConsumer, type Consumer, httpConsumer, sdkConsumer } from './feed/consumers';
import { loadEvents } from './feed/dataset';
import { createBenchKey } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { treeCpuMs } from './lib/cpu';
import { f, table } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';
import { median } from './lib/stats';

/**
 * `pnpm bench feed`: events per second one consumer reads by following the feed's cursor
 * (`GET /api/v1/events`, the real portal), against the same rows read as the same JSON by a
 * bare keyset query in the same run; and how fast `assign_event_sequences()` numbers a backlog.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  events: envInt('BENCH_EVENTS', 100_000),
  pageSizes: (process.env.BENCH_PAGE_SIZES ?? '1000,100').split(',').map(Number),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};

let stack: BenchStack | undefined;

interface Sample {
  consumer: string;
  pageSize: number;
  events: number;
  seconds: number;
  portalCpuMs: number;
  pgCpuMs: number;
}

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}), migrating, seeding, starting the portal…`);
  stack = await startStack({ entry: settings.portal, ephemeral: settings.ephemeral });
  const s = stack;
  const key = await createBenchKey(
    s.baseUrl,
    s.databaseUrl,
    { email: 'admin@demo.test', password: s.adminPassword, tenant: 'demo' },
    ['webhooks'],
  );
  log(`loading ${settings.events} events into tenant demo and numbering them…`);
  const data = await loadEvents(s.databaseUrl, key.tenantId, settings.events, s.postmasterPid);
  log(
    `  ${data.events} events in the feed (the seed's included), ~${data.avgDataBytes} B of data each; loaded in ${f(data.loadedSeconds, 1)} s, numbered in ${f(data.numberedSeconds, 1)} s`,
  );

  const consumers: Array<[string, number, Consumer]> = [];
  const closers: Array<() => Promise<void>> = [];
  for (const size of settings.pageSizes) {
    const bare = await bareSqlConsumer(s.databaseUrl, key.tenantId, size);
    closers.push(bare.close);
    consumers.push(['bare SQL keyset', size, bare.consume]);
    consumers.push(['portal over HTTP', size, httpConsumer(s.baseUrl, key.key, 'demo', size)]);
    consumers.push(['sdk events()', size, sdkConsumer(s.baseUrl, key.key, 'demo', size)]);
  }
  s.onStop(async () => {
    for (const close of closers) await close();
  });

  log('warm-up: one pass of each consumer…');
  for (const [, , consume] of consumers) await consume();
  const samples: Sample[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    for (const [name, pageSize, consume] of consumers) {
      const [portal0, pg0, t0] = [
        treeCpuMs(s.portalPid),
        treeCpuMs(s.postmasterPid),
        performance.now(),
      ];
      const events = await consume();
      const seconds = (performance.now() - t0) / 1000;
      const sample = {
        consumer: name,
        pageSize,
        events,
        seconds,
        portalCpuMs: treeCpuMs(s.portalPid) - portal0,
        pgCpuMs: treeCpuMs(s.postmasterPid) - pg0,
      };
      if (events !== data.events)
        throw new Error(`${name} read ${events} events of ${data.events}`);
      samples.push(sample);
      log(`  round ${round}: ${name} (page ${pageSize}): ${f(events / seconds)} events/s`);
    }
  }

  const rows = consumers.map(([name, pageSize]) => {
    const mine = samples.filter((x) => x.consumer === name && x.pageSize === pageSize);
    const rate = median(mine.map((x) => x.events / x.seconds));
    const bare = median(
      samples
        .filter((x) => x.consumer === 'bare SQL keyset' && x.pageSize === pageSize)
        .map((x) => x.events / x.seconds),
    );
    const perThousand = (pick: (x: Sample) => number) =>
      median(mine.map((x) => (pick(x) / x.events) * 1000));
    return [
      name,
      pageSize,
      f(rate),
      `${f(Math.min(...mine.map((x) => x.events / x.seconds)))}–${f(Math.max(...mine.map((x) => x.events / x.seconds)))}`,
      f(rate / bare, 2),
      f(
        perThousand((x) => x.portalCpuMs),
        1,
      ),
      f(
        perThousand((x) => x.pgCpuMs),
        1,
      ),
    ];
  });
  console.log(
    `\nOne consumer reading the whole feed of ${data.events} events (~${data.avgDataBytes} B of data each), median of ${settings.rounds} interleaved rounds\n`,
  );
  console.log(
    table(
      [
        'consumer',
        'page',
        'events/s',
        'rounds min–max',
        '× bare',
        'portal CPU ms/1k',
        'PG CPU ms/1k',
      ],
      rows,
    ),
  );
  console.log(
    `\nNumbering a backlog: ${data.events} events in ${f(data.numberedSeconds, 1)} s = ${f(data.events / data.numberedSeconds)} events/s (assign_event_sequences, 50 000 per call); PostgreSQL CPU per event: ${f(data.numberCpuUs, 1)} µs to number it, ${f(data.insertCpuUs, 1)} µs to insert it (bulk INSERT … SELECT)`,
  );
  await writeResults('feed', { settings, data, samples });
}

runBench('feed', main, () => stack?.stop());
