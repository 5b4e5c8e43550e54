import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { type Standby, startStandby } from '@erp/db/standby';
import pg from 'pg';
import { createBenchKey, postJson } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type HttpRoute, type HttpRouteResult, runHttpRounds } from './lib/http-rounds';
import { f, table } from './lib/report';
import { startPortal } from './lib/server-process';
import { type BenchStack, PORTAL_DIR, startStack } from './lib/stack';

/**
 * `pnpm bench tenants` (issue 29, SPEC §19): what the number of tenants and a read replica do
 * to one tenant's requests.
 *
 * 1. Cost must not grow with the number of tenants: two stacks side by side (each its own
 *    durable embedded PostgreSQL and real portal), one with FEW tenants and one with MANY, every
 *    tenant provisioned through the internal route and holding the same customers (loaded by
 *    SQL). One tenant's API key lists (`GET /customers?page_size=50`) and creates
 *    (`POST /customers`) on each; the four routes interleaved, rounds rotated.
 * 2. Reads moved off the primary: a real hot standby of the MANY stack's primary
 *    (`startStandby`) and a second portal on the same primary with
 *    `DATABASE_REPLICA_URLS=<standby>`; a read-only key's list through the portal without a
 *    replica against the one with, interleaved, with the primary's CPU per request (its
 *    postmaster and every child, /proc) and the standby's; `database_reads_total` from the
 *    second portal's `/metrics` shows where the reads ran.
 */
const settings = {
  few: envInt('BENCH_TENANTS_FEW', 10),
  many: envInt('BENCH_TENANTS_MANY', 1_000),
  customers: envInt('BENCH_TENANT_CUSTOMERS', 200),
  provisionConcurrency: envInt('BENCH_PROVISION_CONCURRENCY', 4),
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 5),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2),
  roundWarmupSeconds: envInt('BENCH_ROUND_WARMUP_SECONDS', 1),
  connections: envInt('BENCH_CONNECTIONS', 10),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};
const LIST = '/api/v1/customers?page_size=50';
const CREATE = '/api/v1/customers';
const CREATE_BODY = JSON.stringify({
  name: 'Bench customer',
  customer_type: 'company',
  active: true,
  city: 'Lyon',
  country_code: 'FR',
});

const stacks: BenchStack[] = [];

/** The first tenant's admin, whose key is measured. */
interface Measured {
  slug: string;
  adminEmail: string;
  adminPassword: string;
}

/**
 * `count` tenants on the `business` plan through `POST /api/v1/internal/tenants`, as the SaaS
 * back office provisions them (admin account, books), `concurrency` at a time.
 */
async function provision(s: BenchStack, count: number, concurrency: number) {
  const started = performance.now();
  const ids: string[] = new Array(count);
  let measured: Measured | undefined;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        const slug = `tenant-${String(i + 1).padStart(4, '0')}`;
        const adminEmail = `admin@${slug}.test`;
        const adminPassword = randomBytes(12).toString('hex');
        const created = await postJson<{ tenant: { id: string } }>(
          `${s.baseUrl}/api/v1/internal/tenants`,
          {
            slug,
            name: `Tenant ${i + 1}`,
            plan_code: 'business',
            admin: { email: adminEmail, name: `Admin ${slug}`, password: adminPassword },
          },
          { 'x-api-key': s.internalApiKey },
        );
        ids[i] = created.tenant.id;
        if (i === 0) measured = { slug, adminEmail, adminPassword };
      }
    }),
  );
  return { ids, measured: measured!, seconds: (performance.now() - started) / 1000 };
}

/*
 * `$2` customers for each tenant of `$1`, interleaved across tenants in creation order (ids are
 * the table's default UUIDv7, time-ordered as the API makes them), so one tenant's rows are
 * spread over the heap as they would be after years of everyone's writes.
 */
const CUSTOMERS = `
  INSERT INTO customers (tenant_id, name, customer_type, email, city, country_code, currency,
                         payment_terms_days, active)
  SELECT t.id, format('Client %s', c), CASE WHEN c % 5 = 0 THEN 'individual' ELSE 'company' END,
         format('achats%s@client%s.example', c, c),
         (ARRAY['Paris','Lyon','Lille','Nantes','Bordeaux'])[1 + c % 5], 'FR', 'EUR', 30, true
    FROM generate_series(1, $2::int) AS c
   CROSS JOIN unnest($1::uuid[]) WITH ORDINALITY AS t (id, ord)
   ORDER BY c, t.ord`;

/** Loads the customers as the superuser (no RLS), then VACUUM ANALYZE and a CHECKPOINT. */
async function loadCustomers(s: BenchStack, ids: string[], perTenant: number) {
  const started = performance.now();
  const client = new pg.Client({ connectionString: s.databaseUrl });
  await client.connect();
  try {
    await client.query(CUSTOMERS, [ids, perTenant]);
    await client.query('VACUUM ANALYZE');
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ tenants: number; customers: number; size: string }>(
      `SELECT (SELECT count(*)::int FROM tenants) AS tenants,
              (SELECT count(*)::int FROM customers) AS customers,
              pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    return { ...rows[0]!, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** One stack with `count` tenants of `customers` customers each, and a key of the first one. */
async function prepare(s: BenchStack, count: number, label: string) {
  log(`${label}: provisioning ${count} tenants (${settings.provisionConcurrency} at a time)…`);
  const provisioned = await provision(s, count, settings.provisionConcurrency);
  log(`  ${count} tenants in ${f(provisioned.seconds, 1)} s; loading the customers by SQL…`);
  const loaded = await loadCustomers(s, provisioned.ids, settings.customers);
  log(
    `  ${loaded.customers} customers, ${loaded.tenants} tenants (the seed's demo included), ${loaded.size}, in ${f(loaded.seconds, 1)} s`,
  );
  const m = provisioned.measured;
  const holder = { email: m.adminEmail, password: m.adminPassword, tenant: m.slug };
  const key = await createBenchKey(s.baseUrl, s.databaseUrl, holder, ['crm:write']);
  const readKey = await createBenchKey(s.baseUrl, s.databaseUrl, holder, ['crm:read']);
  const headers = (k: typeof key) => ({ authorization: `Bearer ${k.key}`, 'x-tenant-id': m.slug });
  return {
    provisionSeconds: provisioned.seconds,
    loaded,
    headers: headers(key),
    readHeaders: headers(readKey),
  };
}

/** `database_reads_total` of a portal's `/metrics`, by `target/reason`. */
async function readsByTarget(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^database_reads_total\{target="([^"]*)",reason="([^"]*)"\} (\d+)/gm,
  )) {
    out[m[2] ? `${m[1]}/${m[2]}` : m[1]!] = Number(m[3]);
  }
  return out;
}

/** Waits until the portal's router sees the replica up and caught up (its gauges). */
async function replicaReady(metricsUrl: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const up = /^database_replica_up\{[^}]*\} 1$/m.test(text);
    const lag = Number(/^database_replica_lag_bytes\{[^}]*\} (\d+)$/m.exec(text)?.[1] ?? -1);
    if (up && lag >= 0 && lag < 1024 * 1024) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the portal never saw the standby up and caught up');
}

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(after)
      .map((k) => [k, after[k]! - (before[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );

async function main(): Promise<void> {
  const load = loadavg();
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`load average at start: ${load.map((x) => x.toFixed(2)).join(', ')}`);
  log(`starting two stacks (PostgreSQL ${durability}, migrated, seeded; the portal)…`);
  const started = await Promise.allSettled([
    startStack({ entry: settings.portal, ephemeral: settings.ephemeral }),
    startStack({ entry: settings.portal, ephemeral: settings.ephemeral }),
  ]);
  for (const r of started) if (r.status === 'fulfilled') stacks.push(r.value);
  for (const r of started) if (r.status === 'rejected') throw r.reason;
  const [few, many] = stacks as [BenchStack, BenchStack];
  const fewSet = await prepare(few, settings.few, `${settings.few}-tenant stack`);
  const manySet = await prepare(many, settings.many, `${settings.many}-tenant stack`);

  // 1. The same tenant's requests with few and with many tenants in the database.
  const nf = settings.few;
  const nm = settings.many;
  const routesOf = (s: BenchStack, headers: Record<string, string>, n: number): HttpRoute[] => [
    {
      name: `list @ ${n}`,
      url: s.baseUrl + LIST,
      headers,
      serverPid: s.portalPid,
      postmasterPid: s.postmasterPid,
      expectStatus: 200,
    },
    {
      name: `create @ ${n}`,
      url: s.baseUrl + CREATE,
      method: 'POST',
      body: CREATE_BODY,
      headers: { ...headers, 'content-type': 'application/json' },
      serverPid: s.portalPid,
      postmasterPid: s.postmasterPid,
      expectStatus: 201,
    },
  ];
  const [listFew, createFew] = routesOf(few, fewSet.headers, nf);
  const [listMany, createMany] = routesOf(many, manySet.headers, nm);
  const http = {
    connections: settings.connections,
    rounds: settings.rounds,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    roundWarmupSeconds: settings.roundWarmupSeconds,
  };
  log(`\n1. one tenant's list and create, ${nf} vs ${nm} tenants, interleaved…`);
  const scale = await runHttpRounds([listFew!, listMany!, createFew!, createMany!], {
    ...http,
    postmasterPid: few.postmasterPid, // each route names its own cluster
  });
  const byName = (rs: HttpRouteResult[], name: string) => rs.find((r) => r.route === name)!;
  const ratio = (op: 'list' | 'create', pick: (r: HttpRouteResult) => number) =>
    pick(byName(scale, `${op} @ ${nm}`)) / pick(byName(scale, `${op} @ ${nf}`));
  const ratios = {
    listReqPerSec: ratio('list', (r) => r.reqPerSec),
    createReqPerSec: ratio('create', (r) => r.reqPerSec),
    listP50: ratio('list', (r) => r.p50Ms),
    createP50: ratio('create', (r) => r.p50Ms),
  };

  // The FEW stack is done: its PostgreSQL and portal stop, so they take nothing from part 2.
  await few.stop();

  // 2. A hot standby of the MANY stack's primary, and a second portal reading on it.
  log('\n2. a hot standby of the primary, and a portal with DATABASE_REPLICA_URLS…');
  const standbyDir = await mkdtemp(path.join(tmpdir(), 'erp-bench-standby-'));
  // As root PostgreSQL runs as `postgres`, which must reach the standby's folder.
  await chmod(standbyDir, 0o755);
  many.onStop(() => rm(standbyDir, { recursive: true, force: true }));
  const standbyStarted = performance.now();
  const standby: Standby = await startStandby({
    primaryUrl: many.databaseUrl,
    primaryDataDir: many.dataDir,
    dataDir: path.join(standbyDir, 'standby'),
  });
  many.onStop(() => standby.remove());
  const standbySeconds = (performance.now() - standbyStarted) / 1000;
  const standbyPid = Number(
    (await readFile(path.join(standby.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  const database = decodeURIComponent(new URL(many.databaseUrl).pathname.slice(1));
  const port = await findFreePort();
  const metricsPort = await findFreePort();
  const replicaPortal = await startPortal(
    PORTAL_DIR,
    port,
    {
      ...many.portalEnv,
      PORTAL_PORT: String(port),
      PORTAL_METRICS_PORT: String(metricsPort),
      DATABASE_REPLICA_URLS: standby.urlFor(database),
    },
    settings.portal,
  );
  many.onStop(() => replicaPortal.stop());
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  await replicaReady(metricsUrl);
  log(`  standby made and started in ${f(standbySeconds, 1)} s; the portal sees it caught up`);

  const replicaRoutes: HttpRoute[] = [
    {
      name: 'list, primary only',
      url: many.baseUrl + LIST,
      headers: manySet.readHeaders,
      serverPid: many.portalPid,
      expectStatus: 200,
    },
    {
      name: 'list, 1 replica',
      url: replicaPortal.baseUrl + LIST,
      headers: manySet.readHeaders,
      serverPid: replicaPortal.pid,
      expectStatus: 200,
    },
  ];
  const readsBefore = await readsByTarget(metricsUrl);
  const replicas = await runHttpRounds(replicaRoutes, {
    ...http,
    postmasterPid: many.postmasterPid,
    alsoCount: [{ name: 'standby', pid: standbyPid }],
  });
  const readsDuring = diff(await readsByTarget(metricsUrl), readsBefore);
  const [none, one] = replicas as [HttpRouteResult, HttpRouteResult];

  // The report.
  const scaleRows = scale.map((r) => [
    r.route,
    f(r.reqPerSec),
    `${f(Math.min(...r.rounds.map((x) => x.reqPerSec)))}–${f(Math.max(...r.rounds.map((x) => x.reqPerSec)))}`,
    f(r.p50Ms, 2),
    f(r.p99Ms, 2),
    f(r.serverCpuUs),
    f(r.postgresCpuUs),
    f(r.othersCpuPct),
  ]);
  const replicaRows = replicas.map((r) => [
    r.route,
    f(r.reqPerSec),
    `${f(Math.min(...r.rounds.map((x) => x.reqPerSec)))}–${f(Math.max(...r.rounds.map((x) => x.reqPerSec)))}`,
    f(r.p50Ms, 2),
    f(r.p99Ms, 2),
    f(r.serverCpuUs),
    f(r.postgresCpuUs),
    f(r.alsoCpuUs.standby!),
    f(r.othersCpuPct),
  ]);
  const replicaCount = readsDuring.replica ?? 0;
  const primaryCount = Object.entries(readsDuring)
    .filter(([k]) => k.startsWith('primary'))
    .reduce((sum, [, v]) => sum + v, 0);
  const bar = (x: number) => (x >= 0.9 ? 'meets ≥ 0.9' : 'BELOW 0.9');
  process.stdout.write(
    [
      `\ntenants (issue 29, SPEC §19): load average at start ${load.map((x) => x.toFixed(2)).join(', ')}; PostgreSQL ${many.postgresVersion}, ${durability}; ${settings.connections} connections; medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s`,
      `\n1. one tenant's API key, ${nf} tenants (${fewSet.loaded.customers} customers, ${fewSet.loaded.size}) vs ${nm} tenants (${manySet.loaded.customers} customers, ${manySet.loaded.size}), ${settings.customers} customers each, every tenant provisioned by the internal route (${nm} in ${f(manySet.provisionSeconds, 0)} s), customers by SQL`,
      table(
        [
          'route',
          'req/s',
          'rounds min–max',
          'p50 ms',
          'p99 ms',
          'portal CPU µs/req',
          'PG CPU µs/req',
          "others' CPU %",
        ],
        scaleRows,
      ),
      `list:   ${nm}÷${nf} req/s ${f(ratios.listReqPerSec, 3)} (${bar(ratios.listReqPerSec)}), p50 ×${f(ratios.listP50, 3)}`,
      `create: ${nm}÷${nf} req/s ${f(ratios.createReqPerSec, 3)} (${bar(ratios.createReqPerSec)}), p50 ×${f(ratios.createP50, 3)}`,
      `\n2. the list (read-only key) on the ${nm}-tenant primary, through a portal without and a portal with DATABASE_REPLICA_URLS (a hot standby, made in ${f(standbySeconds, 1)} s); PG CPU = the primary's postmaster and all its children (walsender included)`,
      table(
        [
          'route',
          'req/s',
          'rounds min–max',
          'p50 ms',
          'p99 ms',
          'portal CPU µs/req',
          'primary CPU µs/req',
          'standby CPU µs/req',
          "others' CPU %",
        ],
        replicaRows,
      ),
      `1 replica ÷ none: req/s ${f(one.reqPerSec / none.reqPerSec, 3)}, primary CPU per request ${f(one.postgresCpuUs / none.postgresCpuUs, 3)}`,
      `database_reads_total of the replica portal during part 2 (warm-ups included): replica ${replicaCount}, primary ${primaryCount} ${JSON.stringify(readsDuring)}`,
      '',
    ].join('\n'),
  );
  await writeResults('tenants', {
    settings,
    loadAverageAtStart: load,
    setup: {
      few: { provisionSeconds: fewSet.provisionSeconds, ...fewSet.loaded },
      many: { provisionSeconds: manySet.provisionSeconds, ...manySet.loaded },
      standbySeconds,
    },
    scale,
    ratios,
    replicas,
    readsDuring,
  });
  if (replicaCount === 0) {
    log('no read ran on the replica: part 2 did not measure a replica');
    process.exitCode = 1;
  } else if (primaryCount > 0)
    log(`note: ${primaryCount} reads of the replica portal ran on the primary`);
}

runBench('tenants', main, async () => {
  for (const s of stacks.reverse()) await s.stop();
});
