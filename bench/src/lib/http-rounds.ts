import autocannon from 'autocannon';
import { machineBusyMs, selfCpuMs, treeCpuMs } from './cpu';
import { latencySummary, median, SampleBuffer } from './stats';

/** One request the load generator repeats, and the server process that answers it. */
export interface HttpRoute {
  name: string;
  /** Absolute URL. */
  url: string;
  headers: Record<string, string>;
  /** The process whose CPU is counted as the server's (its children included). */
  serverPid: number;
  /** GET unless told; a POST repeats the same `body` on every request. */
  method?: 'GET' | 'POST';
  body?: string;
  /**
   * The PostgreSQL whose CPU per request is counted for this route, when it is not
   * `HttpSettings.postmasterPid` (routes on two clusters in one interleaved run).
   */
  postmasterPid?: number;
  /** The status every answer must have; anything else fails the run (a bench that measures errors measures nothing). */
  expectStatus: number;
}

export interface HttpSettings {
  connections: number;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /**
   * Unmeasured load on each route right before each of its measured slices (0: none): pools
   * close connections left idle while the other routes ran, and their re-opening (a backend
   * start, its caches, the first plans) is not the request's steady-state cost.
   */
  roundWarmupSeconds?: number;
  postmasterPid: number;
  /**
   * Other processes whose CPU per request is counted too (say, the server behind a proxy),
   * by name; none by default. They are not counted in `othersCpuPct`.
   */
  alsoCount?: Array<{ name: string; pid: number }>;
}

/** One route in one round. */
export interface HttpSample {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per request: server process, PostgreSQL (all its processes), this load generator. */
  serverCpuUs: number;
  postgresCpuUs: number;
  loadgenCpuUs: number;
  /** Other processes' CPU during the round, in % of one core: noise if well above 0. */
  othersCpuPct: number;
  /** CPU per request of each of `HttpSettings.alsoCount`, by name (µs); empty without it. */
  alsoCpuUs: Record<string, number>;
}

export interface HttpRouteResult extends HttpSample {
  route: string;
  rounds: HttpSample[];
}

/**
 * Warms every route, then runs `rounds` rounds in which each route gets the same slice of
 * time; the order rotates each round so no route always follows the same neighbour.
 * Reports per route the median of each figure across rounds.
 */
export async function runHttpRounds(
  routes: HttpRoute[],
  s: HttpSettings,
): Promise<HttpRouteResult[]> {
  for (const route of routes) await runOnce(route, s, s.warmupSeconds);
  const samples = new Map<string, HttpSample[]>(routes.map((r) => [r.name, []]));
  for (let round = 0; round < s.rounds; round++) {
    const order = routes.map((_, i) => routes[(i + round) % routes.length]!);
    for (const route of order) {
      if (s.roundWarmupSeconds) await runOnce(route, s, s.roundWarmupSeconds);
      const sample = await runOnce(route, s, s.seconds);
      samples.get(route.name)!.push(sample);
      process.stderr.write(
        `  round ${round + 1}/${s.rounds} ${route.name.padEnd(28)} ${sample.reqPerSec.toFixed(0).padStart(6)} req/s\n`,
      );
    }
  }
  return routes.map((route) => {
    const rounds = samples.get(route.name)!;
    const mid = (pick: (x: HttpSample) => number) => median(rounds.map(pick));
    return {
      route: route.name,
      requests: mid((x) => x.requests),
      reqPerSec: mid((x) => x.reqPerSec),
      p50Ms: mid((x) => x.p50Ms),
      p99Ms: mid((x) => x.p99Ms),
      serverCpuUs: mid((x) => x.serverCpuUs),
      postgresCpuUs: mid((x) => x.postgresCpuUs),
      loadgenCpuUs: mid((x) => x.loadgenCpuUs),
      othersCpuPct: mid((x) => x.othersCpuPct),
      alsoCpuUs: Object.fromEntries(
        (s.alsoCount ?? []).map(({ name }) => [name, mid((x) => x.alsoCpuUs[name]!)]),
      ),
      rounds,
    };
  });
}

const othersMs = (c: {
  server: number;
  pg: number;
  self: number;
  machine: number;
  also: Record<string, number>;
}) => c.machine - c.server - c.pg - c.self - Object.values(c.also).reduce((a, b) => a + b, 0);

async function runOnce(route: HttpRoute, s: HttpSettings, seconds: number): Promise<HttpSample> {
  // autocannon's own histogram has 1 ms resolution; the response event gives the exact time.
  const latencies = new SampleBuffer();
  const unexpected = new Map<number, number>();
  const sample = () => ({
    server: treeCpuMs(route.serverPid),
    pg: treeCpuMs(route.postmasterPid ?? s.postmasterPid),
    self: selfCpuMs(),
    machine: machineBusyMs(),
    also: Object.fromEntries(
      (s.alsoCount ?? [])
        .filter(({ pid }) => pid !== route.serverPid) // counted once, as the server
        .map(({ name, pid }) => [name, treeCpuMs(pid)]),
    ),
  });
  const before = sample();
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: route.url,
        headers: route.headers,
        ...(route.method ? { method: route.method } : {}),
        ...(route.body === undefined ? {} : { body: route.body }),
        connections: s.connections,
        pipelining: 1,
        duration: seconds,
      },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status === route.expectStatus) latencies.push(ms);
      else unexpected.set(status, (unexpected.get(status) ?? 0) + 1);
    });
  });
  const elapsedS = (performance.now() - started) / 1000;
  const after = sample();
  if (unexpected.size || result.errors || result.timeouts) {
    const codes = JSON.stringify(Object.fromEntries(unexpected));
    throw new Error(
      `${route.name}: expected only ${route.expectStatus}, got ${codes}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const n = latencies.length;
  const { p50, p99 } = latencySummary(latencies.view());
  const perRequestUs = (ms: number) => (ms * 1000) / n;
  return {
    requests: n,
    reqPerSec: n / elapsedS,
    p50Ms: p50,
    p99Ms: p99,
    serverCpuUs: perRequestUs(after.server - before.server),
    postgresCpuUs: perRequestUs(after.pg - before.pg),
    loadgenCpuUs: perRequestUs(after.self - before.self),
    othersCpuPct: Math.max(0, (othersMs(after) - othersMs(before)) / (elapsedS * 10)),
    alsoCpuUs: Object.fromEntries(
      (s.alsoCount ?? []).map(({ name, pid }) => [
        name,
        pid === route.serverPid
          ? perRequestUs(after.server - before.server)
          : perRequestUs(after.also[name]! - before.also[name]!),
      ]),
    ),
  };
}
