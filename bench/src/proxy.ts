import { cpus } from 'node:os';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type HttpRoute, type HttpRouteResult, runHttpRounds } from './lib/http-rounds';
import { f, table } from './lib/report';
import type { PortalEntry } from './lib/server-process';
import { type BenchStack, startStack } from './lib/stack';
import { startFloorProxy, startLanding } from './proxy/landing';
import { NGINX, nginxAvailable, startNginx } from './proxy/nginx';

/**
 * `pnpm bench proxy`: the portal's public plan list asked directly, through landing's public
 * proxy (`/api/v1/public/*` → PORTAL_URL) with its shared cache and with every request sending
 * `Cache-Control: no-cache` (pass-through: the cache bypassed, the forwarding cost), and through
 * nginx `proxy_pass`, side by side in one run against the same portal and database, rounds
 * interleaved. See README.md.
 */
const entry = (name: string): PortalEntry => (process.env[name] === 'dist' ? 'dist' : 'source');
const settings = {
  rounds: envInt('BENCH_ROUNDS', 5),
  seconds: envInt('BENCH_SECONDS', 8),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 3),
  connections: envInt('BENCH_CONNECTIONS', 10),
  latencySeconds: envInt('BENCH_LATENCY_SECONDS', 4),
  portal: entry('BENCH_PORTAL'),
  landing: entry('BENCH_LANDING'),
  floor: process.env.BENCH_PROXY_FLOOR === '1',
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};
const PATH = '/api/v1/public/subscription-plans';
// The issue's aims for landing's proxy.
const AIM_THROUGHPUT = 0.6;
const AIM_ADDED_P50_MS = 1;
const signed = (n: number, digits: number) => (n >= 0 ? '+' : '') + f(n, digits);
// Target labels (after their number).
const LANDING = 'landing';
const PASS_THROUGH = 'landing (pass-through)';
const NGINX_TARGET = 'nginx';
const FLOOR = 'floor';

let stack: BenchStack | undefined;

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}), migrating, seeding, starting the portal…`);
  stack = await startStack({ entry: settings.portal, ephemeral: settings.ephemeral });
  const s = stack;
  const routes: HttpRoute[] = [
    {
      name: '1 direct',
      url: s.baseUrl + PATH,
      headers: {},
      serverPid: s.portalPid,
      expectStatus: 200,
    },
  ];
  const skipped: string[] = [];

  log(`starting landing (${settings.landing})…`);
  const landing = await startLanding(s.baseUrl, s.databaseUrl, settings.landing);
  s.onStop(() => landing.stop());
  const probe = await fetch(landing.baseUrl + PATH).then(
    (res) => res.arrayBuffer().then(() => res.status),
    (error: unknown) => `${error}`,
  );
  if (probe === 200) {
    routes.push(
      {
        name: `2 ${LANDING}`,
        url: landing.baseUrl + PATH,
        headers: {},
        serverPid: landing.pid,
        expectStatus: 200,
      },
      {
        name: `3 ${PASS_THROUGH}`,
        url: landing.baseUrl + PATH,
        // The request asks the cache not to answer: every request goes to the portal.
        headers: { 'cache-control': 'no-cache' },
        serverPid: landing.pid,
        expectStatus: 200,
      },
    );
  } else {
    skipped.push(`2, 3 landing: it answers ${probe} on GET ${PATH} (public proxy not mounted?)`);
  }

  if (nginxAvailable()) {
    log('starting nginx…');
    const nginx = await startNginx(s.baseUrl, PATH);
    s.onStop(() => nginx.stop());
    routes.push({
      name: `4 ${NGINX_TARGET}`,
      url: nginx.baseUrl + PATH,
      headers: {},
      serverPid: nginx.pid,
      expectStatus: 200,
    });
  } else {
    skipped.push(
      `4 nginx: ${NGINX} not found; install it with \`apt-get install nginx-light\` (Debian/Ubuntu)`,
    );
  }

  if (settings.floor) {
    const floor = await startFloorProxy(s.baseUrl);
    s.onStop(() => floor.stop());
    routes.push({
      name: `5 ${FLOOR}`,
      url: floor.baseUrl + PATH,
      headers: {},
      serverPid: floor.pid,
      expectStatus: 200,
    });
  }
  for (const line of skipped) log(`  SKIPPED ${line}`);

  log('checking that every proxy answers the portal’s bytes…');
  const bodyBytes = await checkSameAnswers(routes);
  log(`  same ${bodyBytes} bytes, content-type and cache-control from all ${routes.length}`);

  const common = {
    warmupSeconds: settings.warmupSeconds,
    postmasterPid: s.postmasterPid,
    alsoCount: [{ name: 'portal', pid: s.portalPid }],
  };
  log(
    `HTTP: ${settings.rounds} rounds × ${routes.length} targets × ${settings.seconds} s, ${settings.connections} connections`,
  );
  const loaded = await runHttpRounds(routes, {
    ...common,
    rounds: settings.rounds,
    seconds: settings.seconds,
    connections: settings.connections,
  });
  log(
    `latency alone: ${settings.rounds} rounds × ${routes.length} targets × ${settings.latencySeconds} s, 1 connection`,
  );
  const alone = await runHttpRounds(routes, {
    ...common,
    warmupSeconds: 1,
    rounds: settings.rounds,
    seconds: settings.latencySeconds,
    connections: 1,
  });

  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    postgres: `${s.postgresVersion} (${durability})`,
    portal: `${settings.portal === 'dist' ? 'dist/main.js' : 'src/main.ts via tsx'}, NODE_ENV=production, pool 10, one process`,
    landing: `${settings.landing === 'dist' ? 'dist/main.js' : 'src/main.ts via tsx'}, NODE_ENV=production, one process`,
  };
  const out = [
    `\n== Public proxy: portal direct vs landing vs nginx, one run (${environment.cpus}; Node ${environment.node}; PostgreSQL ${environment.postgres})`,
    `   GET ${PATH}; medians of ${settings.rounds} interleaved rounds (order rotated) of ${settings.seconds} s at ${settings.connections} connections, then of ${settings.latencySeconds} s at 1 connection; pipelining 1`,
    `   portal: ${environment.portal}; landing: ${environment.landing}`,
    `   landing: its shared cache on (default; the portal answers Cache-Control: public, max-age=60, so about one request a minute reaches the portal); "${PASS_THROUGH}": the same landing, every request sending Cache-Control: no-cache (cache bypassed, the forwarding cost)`,
    `   ${routes.some((r) => r.name.endsWith(NGINX_TARGET)) ? 'nginx: 1 worker, upstream keepalive 32, proxy_http_version 1.1, no access log; ' : ''}load generator, proxies, portal and PostgreSQL share the cores`,
    `   all targets answered the same ${bodyBytes} bytes before the rounds; "proxy CPU": the proxy's process (nginx: master + worker); "others' CPU %": other processes meanwhile (% of one core)`,
    ...skipped.map((line) => `   SKIPPED ${line}`),
    '',
    proxyTable(loaded, alone),
    '',
    verdict(loaded, alone),
  ].join('\n');
  process.stdout.write(`${out}\n`);

  await writeResults('proxy', {
    environment,
    settings,
    path: PATH,
    bodyBytes,
    skipped,
    loaded,
    alone,
  });
}

/** Every target answers 200 with the direct answer's bytes and caching headers. */
async function checkSameAnswers(routes: HttpRoute[]): Promise<number> {
  const read = async (route: HttpRoute) => {
    const res = await fetch(route.url, { headers: route.headers });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${route.name}: ${res.status} ${body}`);
    return { body, type: res.headers.get('content-type'), cache: res.headers.get('cache-control') };
  };
  const direct = await read(routes[0]!);
  for (const route of routes.slice(1)) {
    const got = await read(route);
    if (!got.body.equals(direct.body))
      throw new Error(`${route.name}: body differs from the portal's`);
    if (got.type !== direct.type || got.cache !== direct.cache) {
      throw new Error(
        `${route.name}: content-type/cache-control ${got.type}/${got.cache}, portal ${direct.type}/${direct.cache}`,
      );
    }
  }
  return direct.body.length;
}

function proxyTable(loaded: HttpRouteResult[], alone: HttpRouteResult[]): string {
  const base = loaded[0]!;
  return table(
    [
      'target',
      'req/s',
      'rounds min–max',
      '× direct',
      'p50 ms',
      'p99 ms',
      'proxy CPU µs/req',
      'portal CPU µs/req',
      'PG CPU µs/req',
      'loadgen CPU µs/req',
      "others' CPU %",
      'alone p50 ms',
      'alone p99 ms',
    ],
    loaded.map((r, i) => [
      r.route,
      f(r.reqPerSec),
      `${f(Math.min(...r.rounds.map((x) => x.reqPerSec)))}–${f(Math.max(...r.rounds.map((x) => x.reqPerSec)))}`,
      f(r.reqPerSec / base.reqPerSec, 2),
      f(r.p50Ms, 2),
      f(r.p99Ms, 2),
      i === 0 ? '-' : f(r.serverCpuUs),
      f(r.alsoCpuUs.portal!),
      f(r.postgresCpuUs),
      f(r.loadgenCpuUs),
      f(r.othersCpuPct),
      f(alone[i]!.p50Ms, 3),
      f(alone[i]!.p99Ms, 3),
    ]),
  );
}

/** The issue's figures: each proxy against direct, landing against nginx, round by round too. */
function verdict(loaded: HttpRouteResult[], alone: HttpRouteResult[]): string {
  // A target's label is its name after the number ("2 landing" → "landing").
  const byLabel = (results: HttpRouteResult[], label: string) =>
    results.find((r) => r.route.slice(r.route.indexOf(' ') + 1) === label);
  const direct = loaded[0]!;
  const directAlone = alone[0]!;
  const lines: string[] = [];
  const compare = (label: string, againstLabel: string) => {
    const r = byLabel(loaded, label);
    const a = byLabel(alone, label);
    const against = againstLabel === 'direct' ? direct : byLabel(loaded, againstLabel);
    const againstAlone = againstLabel === 'direct' ? directAlone : byLabel(alone, againstLabel);
    if (!r || !a || !against || !againstAlone) return;
    const ratio = r.reqPerSec / against.reqPerSec;
    const perRound = r.rounds.map((x, i) => f(x.reqPerSec / against.rounds[i]!.reqPerSec, 2));
    lines.push(
      `   ${label} vs ${againstLabel}: ${f(ratio, 2)}× the req/s (round by round: ${perRound.join(', ')}); ` +
        `p50 ${signed(r.p50Ms - against.p50Ms, 2)} ms, p99 ${signed(r.p99Ms - against.p99Ms, 2)} ms at ${settings.connections} connections; ` +
        `p50 ${signed(a.p50Ms - againstAlone.p50Ms, 3)} ms alone (1 connection)`,
    );
  };
  for (const label of [LANDING, PASS_THROUGH, NGINX_TARGET, FLOOR]) compare(label, 'direct');
  for (const label of [LANDING, PASS_THROUGH]) {
    compare(label, NGINX_TARGET);
    compare(label, FLOOR);
  }

  const aim = (label: string) => {
    const r = byLabel(loaded, label);
    const a = byLabel(alone, label);
    if (!r || !a) return undefined;
    const ratio = r.reqPerSec / direct.reqPerSec;
    const added = r.p50Ms - direct.p50Ms;
    const addedAlone = a.p50Ms - directAlone.p50Ms;
    return (
      `${label}: ≥ ${AIM_THROUGHPUT}× direct's req/s ${ratio >= AIM_THROUGHPUT ? 'met' : 'NOT met'} (${f(ratio, 2)}); ` +
      `added p50 < ${AIM_ADDED_P50_MS} ms ${added < AIM_ADDED_P50_MS ? 'met' : 'NOT met'} at ${settings.connections} connections (${f(added, 2)} ms), ` +
      `${addedAlone < AIM_ADDED_P50_MS ? 'met' : 'NOT met'} alone (${f(addedAlone, 3)} ms)`
    );
  };
  const aims = [aim(LANDING), aim(PASS_THROUGH)].filter(Boolean);
  if (aims.length) lines.push(`   aims: ${aims.join('; ')}`);
  const cpu = (label: string) => {
    const r = byLabel(loaded, label);
    return r ? `${label} ${f(r.serverCpuUs)} µs` : undefined;
  };
  const cpus = [LANDING, PASS_THROUGH, NGINX_TARGET, FLOOR].map(cpu).filter(Boolean);
  if (cpus.length > 1) lines.push(`   proxy CPU per request: ${cpus.join(', ')}`);
  return lines.join('\n');
}

runBench('proxy', main, () => stack?.stop());
