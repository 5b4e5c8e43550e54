import { cpus } from 'node:os';
import { createBenchKey, UNTHROTTLED_LIMIT } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type DbCost, measureDbCases } from './lib/db-timing';
import { type HttpRoute, type HttpRouteResult, runHttpRounds } from './lib/http-rounds';
import { dbTable, f, httpTable, stepTable } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';
import { type Layer, startBareServer } from './list/bare-servers';
import { checkSameAnswers } from './list/correctness';
import { loadSalesOrders, provisionTenants } from './list/dataset';
import { listDbCases } from './list/db-cases';
import { explainList } from './list/explain';
import { captureListStatement, resourceNamed, rowToJsonForm } from './list/list-statement';
import { BARS } from './throughput/issue-17';
import { listFloorRows } from './throughput/issue-30';

/**
 * `pnpm bench list`: the portal's API-key-authenticated sales-order list against a bare
 * `node:http` + pg server running the same statement on the same data, with the portal's
 * layers (key check + rate limit, row-level-security transaction) added one at a time in
 * between, so that each layer's cost is a difference of two rows. See README.md.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 8),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 3),
  roundWarmupSeconds: envInt('BENCH_ROUND_WARMUP_SECONDS', 1),
  connections: envInt('BENCH_CONNECTIONS', 10),
  dbSeconds: envInt('BENCH_DB_SECONDS', 2),
  tenants: envInt('BENCH_TENANTS', 10),
  salesOrders: envInt('BENCH_ORDERS', 100_000),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};
const STATUS = 'confirme';
const QUERY = `?status=eq.${STATUS}&page_size=50`;
// Issue 17's bars, defined with its table.
const BAR = BARS.list;
const PG_BEFORE_US = BARS.listPgBeforeUs;

let stack: BenchStack | undefined;

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}), migrating, seeding, starting the portal…`);
  stack = await startStack({ entry: settings.portal, ephemeral: settings.ephemeral });
  const s = stack;

  log(`provisioning ${settings.tenants} tenants, loading ${settings.salesOrders} sales orders…`);
  const tenants = await provisionTenants(s.baseUrl, s.internalApiKey, settings.tenants);
  const perTenant = Math.ceil(settings.salesOrders / settings.tenants);
  const data = await loadSalesOrders(
    s.databaseUrl,
    tenants.map((t) => t.id),
    perTenant,
  );
  log(
    `  ${data.salesOrders} sales orders, ${data.customers} customers in ${data.seconds.toFixed(1)} s: ${JSON.stringify(data.byStatus)}`,
  );
  const tenant = tenants[0]!;
  const key = await createBenchKey(s.baseUrl, s.databaseUrl, {
    email: tenant.adminEmail,
    password: tenant.adminPassword,
    tenant: tenant.slug,
  });

  const resource = resourceNamed('sales_order');
  const statement = await captureListStatement(resource, tenant.id, QUERY);
  log('starting the bare servers…');
  const variants: Array<[string, Layer[]]> = [
    ['1 bare', []],
    ['2 bare + auth', ['auth']],
    ['3 bare + RLS', ['rls']],
    ['4 bare + auth + RLS', ['auth', 'rls']],
    ['6 bare + the portal’s work', ['auth', 'rls', 'work']],
  ];
  // Every target gets the same request headers, so request parsing costs them the same.
  const headers = { authorization: `Bearer ${key.key}`, 'x-tenant-id': tenant.slug };
  const routes: HttpRoute[] = [];
  for (const [name, layers] of variants) {
    const server = await startBareServer(layers, {
      databaseUrl: s.databaseUrl,
      tenantId: tenant.id,
      resource: resource.name,
      path: `/${resource.path}${QUERY}`,
      apiKeyHashSecret: s.apiKeyHashSecret,
    });
    s.onStop(() => server.stop());
    const url = `${server.baseUrl}/${resource.path}${QUERY}`;
    routes.push({ name, url, headers, serverPid: server.pid, expectStatus: 200 });
  }
  const portal: HttpRoute = {
    name: '5 portal',
    url: `${s.baseUrl}/api/v1/${resource.path}${QUERY}`,
    headers,
    serverPid: s.portalPid,
    expectStatus: 200,
  };
  routes.push(portal);

  log('checking that every target gives the portal’s answer…');
  const correctness = await checkSameAnswers(routes.slice(0, -1), portal, {
    databaseUrl: s.databaseUrl,
    tenantId: tenant.id,
    status: STATUS,
    statement,
  });
  log(
    `  same ${correctness.bodyBytes} bytes from all ${routes.length} (${correctness.rows} rows, same next_cursor); the portal ran the same statement text`,
  );

  log(
    `HTTP: ${settings.rounds} rounds × ${routes.length} targets × ${settings.seconds} s, ${settings.connections} connections`,
  );
  const http = await runHttpRounds(routes, { ...settings, postmasterPid: s.postmasterPid });
  log('database calls…');
  const rowToJson = rowToJsonForm(resource, statement);
  const db = await measureDbCases(
    listDbCases({
      statement,
      rowToJson,
      tenantId: tenant.id,
      apiKey: key.key,
      hashSecret: s.apiKeyHashSecret,
    }),
    {
      databaseUrl: s.databaseUrl,
      postmasterPid: s.postmasterPid,
      seconds: settings.dbSeconds,
      concurrency: settings.connections,
    },
  );

  const explain = await explainList(s.databaseUrl, tenant.id, statement, rowToJson);

  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    postgres: `${s.postgresVersion} (${durability})`,
    portal: `${settings.portal === 'dist' ? 'dist/main.js' : 'src/main.ts via tsx'}, NODE_ENV=production, pool 10, one process`,
  };
  const confirmed = Math.round((data.byStatus[STATUS] ?? 0) / settings.tenants);
  const out = [
    `\n== Sales-order list: portal vs bare node:http + pg, one run (${environment.cpus}; Node ${environment.node}; PostgreSQL ${environment.postgres})`,
    `   GET /api/v1/${resource.path}${QUERY} with an API key (scope sales:read), tenant ${tenant.slug}`,
    `   data: ${data.salesOrders} sales orders in ${settings.tenants} tenants (${perTenant} each, ~${confirmed} ${STATUS}), ${data.customers} customers; VACUUM ANALYZE`,
    `   medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s (each after ${settings.roundWarmupSeconds} s of unmeasured load), ${settings.connections} connections, pipelining 1; one process per target, pool of 10 each`,
    `   rate limits of the key and its tenant raised to ${UNTHROTTLED_LIMIT}/min by SQL: every request is counted, none refused`,
    `   portal: ${environment.portal}; bare servers: src/list/bare-server.ts via tsx; load generator, servers and PostgreSQL share the cores`,
    `   all ${routes.length} answered the same ${correctness.bodyBytes} bytes before the rounds; "others' CPU %": other processes' CPU meanwhile (% of one core)\n`,
    httpTable(http, 'server'),
    '',
    verdict(http, db),
    '',
    stepTable(
      http,
      [
        ['key check + rate limit', '2', '1'],
        ['RLS (erp_app role, tenant bound per connection)', '3', '1'],
        ['both layers', '4', '1'],
        ['  key check on top of RLS', '4', '3'],
        ['  RLS on top of key check', '4', '2'],
        ['portal beyond both (Hono, zod, rights, engine)', '5', '4'],
        ['  the portal’s own work, no framework', '6', '4'],
        ['  the framework (Hono, @hono/node-server)', '5', '6'],
        ['portal, all in', '5', '1'],
      ],
      'server',
    ),
    '',
    dbTable(db),
    '',
    explain.text,
  ].join('\n');
  process.stdout.write(`${out}\n`);

  await writeResults('list', {
    environment,
    settings,
    data,
    statement: { name: statement.name, text: statement.text },
    correctness,
    http,
    db,
    explain: explain.plans,
  });
}

/**
 * Issue 17's list rows: portal ÷ bare (overall and round by round: rounds are interleaved),
 * PostgreSQL's CPU per portal request against the issue's "before", the statement alone
 * against its `row_to_json` form measured in the same run, and what else ran meanwhile.
 */
function verdict(http: HttpRouteResult[], db: DbCost[]): string {
  const bare = http[0]!;
  const portal = http[http.length - 1]!;
  const ratio = portal.reqPerSec / bare.reqPerSec;
  const perRound = portal.rounds.map((r, i) => f(r.reqPerSec / bare.rounds[i]!.reqPerSec, 2));
  const alone = (name: string) => db.find((c) => c.call.startsWith(name) && c.concurrency === 1);
  const statement = alone('list statement, named');
  const before = alone('the same page, JSON by row_to_json');
  const pg = portal.postgresCpuUs;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  return [
    '   issue 17, list rows (this run):',
    `   - list of 50 sales orders with an API key ÷ bare node:http + pg, same SQL: ${f(ratio, 2)}× the req/s (round by round: ${perRound.join(', ')}; p50 ${f(portal.p50Ms / bare.p50Ms, 2)}×, p99 ${f(portal.p99Ms / bare.p99Ms, 2)}×). Bar ≥ ${BAR}: ${met(ratio >= BAR)}`,
    `   - PostgreSQL CPU per list request (portal): ${f(pg)} µs (bare: ${f(bare.postgresCpuUs)} µs). Bar ≤ ${PG_BEFORE_US / 2} µs, half of ~${PG_BEFORE_US} µs before: ${met(pg <= PG_BEFORE_US / 2)}`,
    `   - the statement alone: ${f(statement?.postgresCpuUs ?? Number.NaN)} µs of PostgreSQL CPU, ${f(before?.postgresCpuUs ?? Number.NaN)} µs with its JSON built by row_to_json (${f((statement?.postgresCpuUs ?? Number.NaN) / (before?.postgresCpuUs ?? Number.NaN), 2)}×)`,
    `   - others' CPU meanwhile (% of one core, medians): portal rounds ${f(portal.othersCpuPct)}, bare rounds ${f(bare.othersCpuPct)}`,
    '   issue 30, the list row against its floor (this run):',
    ...listFloorRows(http).map((r) => {
      const floor = http.find((h) => h.route.startsWith('4 '))!;
      const perRound = portal.rounds.map((x, i) => f(x.reqPerSec / floor.rounds[i]!.reqPerSec, 2));
      return `   - ${r.figure}: ${f(r.ratio!, 2)}× (round by round: ${perRound.join(', ')}). Bar ${r.bar}: ${met(r.met)}`;
    }),
  ].join('\n');
}

runBench('list', main, () => stack?.stop());
