import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import pg from 'pg';
import { createBenchKey } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { treeCpuMs } from './lib/cpu';
import { type HttpRoute, runHttpRounds } from './lib/http-rounds';
import { f, httpTable, table } from './lib/report';
import { startServerProcess } from './lib/server-process';
import { type BenchStack, startStack } from './lib/stack';
import { median } from './lib/stats';
import { provisionTenants } from './list/dataset';
import { type Burst, postBurst } from './stock/clients';
import { apiClient, draftDeliveries, onHand, setUpStock } from './stock/setup';

/**
 * `pnpm bench stock` (issue 27, SPEC §18): what the stock engine costs.
 *
 * 1. Shipments per second of one hot product from concurrent clients (`POST
 *    /deliveries/{id}/ship`: the product's stock level locked, the stock ledger written, the
 *    cost posted) ÷ the same clients against a bare node:http server decrementing one counter
 *    row in a transaction, on the same PostgreSQL: what the portal adds around the same lock.
 * 2. `GET /stock-levels?product_id=eq.<id>` ÷ a list of one record (`GET /warehouses?page_size=1`).
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 4),
  clients: envInt('BENCH_CONNECTIONS', 20),
  /** Drafts made before each round's shipments: more than the clients ship in `seconds`. */
  drafts: envInt('BENCH_STOCK_DRAFTS', 1_000),
  stock: envInt('BENCH_STOCK_QUANTITY', 100_000),
  readConnections: envInt('BENCH_READ_CONNECTIONS', 4),
  readSeconds: envInt('BENCH_READ_SECONDS', 4),
  valuation: process.env.BENCH_STOCK_VALUATION ?? 'fifo',
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
};
// The portal's pool (DATABASE_POOL_SIZE's default): the counter server gets the same.
const POOL_SIZE = 10;
const COUNTER_TABLE = 'bench_stock_counter';
const COUNTER_START = 1_000_000_000;

let stack: BenchStack | undefined;

async function main(): Promise<void> {
  log('starting PostgreSQL (durable: fsync on), migrating, seeding, starting the portal…');
  stack = await startStack({ entry: settings.portal, ephemeral: false });
  const s = stack;
  const [tenant] = await provisionTenants(s.baseUrl, s.internalApiKey, 1);
  const key = await createBenchKey(
    s.baseUrl,
    s.databaseUrl,
    { email: tenant!.adminEmail, password: tenant!.adminPassword, tenant: tenant!.slug },
    ['sales:write', 'inventory:write', 'crm:write'],
  );
  const headers = { authorization: `Bearer ${key.key}`, 'x-tenant-id': tenant!.slug };
  const api = apiClient(s.baseUrl, headers);
  const today = new Date().toISOString().slice(0, 10);
  log(`a warehouse, a ${settings.valuation} product, ${settings.stock} found, a sales order…`);
  const scene = await setUpStock(api, {
    valuation: settings.valuation,
    quantity: settings.stock,
    date: today,
  });
  const drafts = (count: number) => draftDeliveries(s.baseUrl, headers, scene, count, today);

  const admin = new pg.Client({ connectionString: s.databaseUrl });
  await admin.connect();
  s.onStop(() => admin.end());
  await admin.query(
    `CREATE TABLE ${COUNTER_TABLE} (id int PRIMARY KEY, n bigint NOT NULL);
     INSERT INTO ${COUNTER_TABLE} VALUES (1, ${COUNTER_START})`,
  );
  const counterPort = await findFreePort();
  const counter = await startServerProcess({
    name: 'counter server',
    cwd: import.meta.dirname,
    args: ['--import', 'tsx', path.join(import.meta.dirname, 'stock/counter-server.ts')],
    env: {
      NODE_ENV: 'production',
      COUNTER_PORT: String(counterPort),
      COUNTER_DATABASE_URL: s.databaseUrl,
      COUNTER_POOL_SIZE: String(POOL_SIZE),
      COUNTER_TABLE,
    },
    port: counterPort,
    readyPath: '/health',
  });
  s.onStop(() => counter.stop());

  type Target = 'shipments' | 'counter';
  const burst = async (target: Target, ids: string[], ms: number) => {
    const pid = target === 'shipments' ? s.portalPid : counter.pid;
    const before = { server: treeCpuMs(pid), pg: treeCpuMs(s.postmasterPid) };
    const result = await postBurst({
      origin: target === 'shipments' ? s.baseUrl : counter.baseUrl,
      clients: settings.clients,
      ms,
      headers: target === 'shipments' ? headers : {},
      nextPath:
        target === 'shipments'
          ? () => {
              const id = ids.pop();
              return id && `/api/v1/deliveries/${id}/ship`;
            }
          : () => '/decrement',
    });
    const us = (cpuMs: number) => (cpuMs * 1000) / result.requests;
    return {
      ...result,
      serverCpuUs: us(treeCpuMs(pid) - before.server),
      postgresCpuUs: us(treeCpuMs(s.postmasterPid) - before.pg),
    };
  };
  type Sample = Burst & { serverCpuUs: number; postgresCpuUs: number };

  log('warming up (200 shipments, 2 s of the counter)…');
  await burst('shipments', await drafts(200), 60_000);
  const counterWarmup = (await burst('counter', [], 2_000)).requests;
  const onHandBefore = await onHand(api, scene.productId);
  const samples: Record<Target, Sample[]> = { shipments: [], counter: [] };
  for (let round = 1; round <= settings.rounds; round++) {
    const ids = await drafts(settings.drafts);
    const order: Target[] = round % 2 ? ['shipments', 'counter'] : ['counter', 'shipments'];
    for (const target of order) {
      const sample = await burst(target, ids, settings.seconds * 1000);
      samples[target].push(sample);
      log(`round ${round}: ${target}: ${f(sample.perSecond)}/s (${sample.requests})`);
    }
    if (!ids.length) log(`  the drafts ran out: raise BENCH_STOCK_DRAFTS`);
  }
  const shipped = samples.shipments.reduce((n, x) => n + x.requests, 0);
  const onHandAfter = await onHand(api, scene.productId);
  const decremented = samples.counter.reduce((n, x) => n + x.requests, 0);
  const counterLeft = Number(
    (await admin.query(`SELECT n FROM ${COUNTER_TABLE} WHERE id = 1`)).rows[0].n,
  );

  log(`\nreads: ${settings.rounds} rounds × ${settings.readSeconds} s…`);
  const route = (name: string, p: string): HttpRoute => ({
    name,
    url: `${s.baseUrl}${p}`,
    headers,
    serverPid: s.portalPid,
    expectStatus: 200,
  });
  const reads = await runHttpRounds(
    [
      route('A one warehouse (page_size=1)', '/api/v1/warehouses?page_size=1'),
      route(
        'B stock levels of the product',
        `/api/v1/stock-levels?product_id=eq.${scene.productId}`,
      ),
    ],
    {
      connections: settings.readConnections,
      rounds: settings.rounds,
      seconds: settings.readSeconds,
      warmupSeconds: 2,
      postmasterPid: s.postmasterPid,
    },
  );

  const mid = (t: Target, pick: (x: Sample) => number) => median(samples[t].map(pick));
  const ship = mid('shipments', (x) => x.perSecond);
  const bare = mid('counter', (x) => x.perSecond);
  const levels = reads[1]!.reqPerSec;
  const one = reads[0]!.reqPerSec;
  const checks = {
    onHandBefore,
    onHandAfter,
    shipped,
    onHandOk: onHandBefore - onHandAfter === shipped,
    decremented,
    counterOk: COUNTER_START - counterLeft === decremented + counterWarmup,
  };
  const rows = (['shipments', 'counter'] as const).map((t) => [
    t === 'shipments'
      ? 'POST /deliveries/{id}/ship (portal)'
      : 'UPDATE counter row (bare node:http)',
    f(mid(t, (x) => x.perSecond)),
    samples[t].map((x) => f(x.perSecond)).join(' / '),
    f(mid(t, (x) => x.serverCpuUs)),
    f(mid(t, (x) => x.postgresCpuUs)),
  ]);
  process.stdout.write(
    [
      `\nstock (issue 27), ${settings.clients} clients, medians of ${settings.rounds} interleaved rounds of ≤ ${settings.seconds} s, ${settings.valuation} product, PostgreSQL durable, pools of ${POOL_SIZE}`,
      table(['one hot product', '/s', 'rounds', 'server CPU µs/req', 'PG CPU µs/req'], rows),
      `\nshipments ÷ bare counter updates: ${f(ship / bare, 2)}`,
      `on hand ${onHandBefore} → ${onHandAfter}: −${onHandBefore - onHandAfter} for ${shipped} shipments ${checks.onHandOk ? '(exact)' : '(MISMATCH)'}`,
      `counter: −${COUNTER_START - counterLeft} for ${decremented} timed + ${counterWarmup} warm-up updates ${checks.counterOk ? '(exact)' : '(MISMATCH)'}`,
      `\nreads, ${settings.readConnections} connections, medians of ${settings.rounds} rounds of ${settings.readSeconds} s`,
      httpTable(reads),
      `\nstock levels of a product ÷ a list of one record: ${f(levels / one, 2)}\n`,
    ].join('\n'),
  );
  await writeResults('stock', { settings, scene, samples, reads, checks });
  if (!checks.onHandOk) process.exitCode = 1;
}

runBench('stock', main, () => stack?.stop());
