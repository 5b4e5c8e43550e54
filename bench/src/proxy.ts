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
 * proxy (`/api/v1/public/*` → PORTAL_URL) and through nginx `proxy_pass`, side by side in one
 * run against the same portal and database, rounds interleaved. See README.md.
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
    routes.push({
      name: '2 landing',
      url: landing.baseUrl + PATH,
      headers: {},
      serverPid: landing.pid,
      expectStatus: 200,
    });
  } else {
    skipped.push(`2 landing: it answers ${probe} on GET ${PATH} (public proxy not mounted?)`);
  }

  if (nginxAvailable()) {
    log('starting nginx…');
    const nginx = await startNginx(s.baseUrl, PATH);
    s.onStop(() => nginx.stop());
    routes.push({
      name: '3 nginx',
      url: nginx.baseUrl + PATH,
      headers: {},
      serverPid: nginx.pid,
      expectStatus: 200,
    });
  } else {
    skipped.push(
      `3 nginx: ${NGINX} not found; install it with \`apt-get install nginx-light\` (Debian/Ubuntu)`,
    );
  }

  if (settings.floor) {
    const floor = await startFloorProxy(s.baseUrl);
    s.onStop(() => floor.stop());
    routes.push({
      name: '4 floor',
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
    `   ${routes.some((r) => r.name === '3 nginx') ? 'nginx: 1 worker, upstream keepalive 32, proxy_http_version 1.1, no access log; ' : ''}load generator, proxies, portal and PostgreSQL share the cores`,
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
  const byLabel = (results: HttpRouteResult[], name: string) =>
    results.find((r) => r.route.endsWith(name));
  const direct = loaded[0]!;
  const directAlone = alone[0]!;
  const lines: string[] = [];
  const compare = (
    name: string,
    against: HttpRouteResult,
    againstAlone: HttpRouteResult,
    what: string,
  ) => {
    const r = byLabel(loaded, name);
    const a = byLabel(alone, name);
    if (!r || !a) return;
    const ratio = r.reqPerSec / against.reqPerSec;
    const perRound = r.rounds.map((x, i) => f(x.reqPerSec / against.rounds[i]!.reqPerSec, 2));
    lines.push(
      `   ${name} vs ${what}: ${f(ratio, 2)}× the req/s (round by round: ${perRound.join(', ')}); ` +
        `p50 ${signed(r.p50Ms - against.p50Ms, 2)} ms, p99 ${signed(r.p99Ms - against.p99Ms, 2)} ms at ${settings.connections} connections; ` +
        `p50 ${signed(a.p50Ms - againstAlone.p50Ms, 3)} ms alone (1 connection)`,
    );
  };
  compare('landing', direct, directAlone, 'direct');
  compare('nginx', direct, directAlone, 'direct');
  compare('floor', direct, directAlone, 'direct');
  const nginx = byLabel(loaded, 'nginx');
  const nginxAlone = byLabel(alone, 'nginx');
  if (nginx && nginxAlone) compare('landing', nginx, nginxAlone, 'nginx');
  const floor = byLabel(loaded, 'floor');
  const floorAlone = byLabel(alone, 'floor');
  if (floor && floorAlone) compare('landing', floor, floorAlone, 'floor');

  const landing = byLabel(loaded, 'landing');
  const landingAlone = byLabel(alone, 'landing');
  if (landing && landingAlone) {
    const ratio = landing.reqPerSec / direct.reqPerSec;
    const added = landing.p50Ms - direct.p50Ms;
    const addedAlone = landingAlone.p50Ms - directAlone.p50Ms;
    lines.push(
      `   aims: landing ≥ ${AIM_THROUGHPUT}× direct's req/s: ${ratio >= AIM_THROUGHPUT ? 'met' : 'NOT met'} (${f(ratio, 2)}); ` +
        `added p50 < ${AIM_ADDED_P50_MS} ms: ${added < AIM_ADDED_P50_MS ? 'met' : 'NOT met'} at ${settings.connections} connections (${f(added, 2)} ms), ` +
        `${addedAlone < AIM_ADDED_P50_MS ? 'met' : 'NOT met'} alone (${f(addedAlone, 3)} ms)`,
      `   landing's CPU per proxied request: ${f(landing.serverCpuUs)} µs (nginx: ${nginx ? f(nginx.serverCpuUs) : '-'} µs${floor ? `, floor: ${f(floor.serverCpuUs)} µs` : ''})`,
    );
  }
  return lines.join('\n');
}

runBench('proxy', main, () => stack?.stop());
