import { cpus } from 'node:os';
import { generateApiKey } from '../../apps/portal/src/auth/api-key-format';
import { measureDbCosts } from './auth/db-costs';
import { measureInProcessCosts } from './auth/in-process-costs';
import { inProcessTable } from './auth/report';
import { createBenchKey, UNTHROTTLED_LIMIT } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type HttpRoute, runHttpRounds } from './lib/http-rounds';
import { dbTable, httpTable, stepTable } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';

/**
 * `pnpm bench auth`: an API-key request against the same portal's unauthenticated health
 * route, side by side in one run, then the per-request cost of key verification and rate
 * limiting split into its steps. Every knob is an environment variable (see README.md).
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 8),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 3),
  connections: envInt('BENCH_CONNECTIONS', 20),
  dbSeconds: envInt('BENCH_DB_SECONDS', 2),
  dbConcurrency: envInt('BENCH_DB_CONCURRENCY', 16),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};

let stack: BenchStack | undefined;

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}), migrating, seeding, starting the portal…`);
  stack = await startStack({ entry: settings.portal, ephemeral: settings.ephemeral });
  const key = await createBenchKey(stack.baseUrl, stack.databaseUrl, {
    email: 'admin@demo.test',
    password: stack.adminPassword,
    tenant: 'demo',
  });
  const asKey = (token: string) => ({ authorization: `Bearer ${token}`, 'x-tenant-id': 'demo' });
  const forged = key.key.slice(0, -1) + (key.key.endsWith('A') ? 'B' : 'A');
  const on = { url: stack.baseUrl, serverPid: stack.portalPid };
  // Routes differ by one step each, so the difference of two rows is the cost of that step.
  const routes: HttpRoute[] = [
    {
      name: 'A health, no auth',
      url: `${on.url}/api/v1/health`,
      serverPid: on.serverPid,
      headers: {},
      expectStatus: 200,
    },
    {
      name: 'B /me with API key',
      url: `${on.url}/api/v1/me`,
      serverPid: on.serverPid,
      headers: asKey(key.key),
      expectStatus: 200,
    },
    // A session-only route: the key is fully verified and counted, then refused (no more queries).
    {
      name: 'C key verified, 403',
      url: `${on.url}/api/v1/settings/users`,
      serverPid: on.serverPid,
      headers: asKey(key.key),
      expectStatus: 403,
    },
    // Well-formed, right checksum, not in the table: the lookup runs, the rate limit does not.
    {
      name: 'D unknown key, 401',
      url: `${on.url}/api/v1/settings/users`,
      serverPid: on.serverPid,
      headers: asKey(generateApiKey().key),
      expectStatus: 401,
    },
    // Wrong checksum: refused before any database work.
    {
      name: 'E forged key, 401',
      url: `${on.url}/api/v1/settings/users`,
      serverPid: on.serverPid,
      headers: asKey(forged),
      expectStatus: 401,
    },
  ];

  log(
    `HTTP: ${settings.rounds} rounds × ${routes.length} routes × ${settings.seconds} s, ${settings.connections} connections`,
  );
  const http = await runHttpRounds(routes, { ...settings, postmasterPid: stack.postmasterPid });
  log('in-process steps…');
  const inProcess = measureInProcessCosts(key.key, stack.apiKeyHashSecret);
  log('database calls…');
  const db = await measureDbCosts(key, {
    databaseUrl: stack.databaseUrl,
    postmasterPid: stack.postmasterPid,
    hashSecret: stack.apiKeyHashSecret,
    seconds: settings.dbSeconds,
    concurrency: settings.dbConcurrency,
  });

  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    postgres: `${stack.postgresVersion} (${durability})`,
    portal: `${settings.portal === 'dist' ? 'dist/main.js' : 'src/main.ts via tsx'}, NODE_ENV=production, pool 10, one process`,
  };
  const a = http[0]!;
  const b = http[1]!;
  const out = [
    `\n== API key vs no auth, one run (${environment.cpus}; Node ${environment.node}; PostgreSQL ${environment.postgres})`,
    `   medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s, ${settings.connections} connections, pipelining 1`,
    `   rate limits of the key and its tenant raised to ${UNTHROTTLED_LIMIT}/min by SQL so no round is throttled`,
    `   portal: ${environment.portal}; load generator, portal and PostgreSQL share the cores`,
    `   "others' CPU %": what other processes on the machine used meanwhile (% of one core)\n`,
    httpTable(http),
    `\n   /me with an API key vs health: ${(b.reqPerSec / a.reqPerSec).toFixed(2)}× the req/s, p50 ${(b.p50Ms / a.p50Ms).toFixed(2)}×, p99 ${(b.p99Ms / a.p99Ms).toFixed(2)}×\n`,
    stepTable(http, [
      ['key verification + rate limit', 'C', 'E'],
      ['  of which the rate limit', 'C', 'D'],
      ['/me handler and its 2 queries', 'B', 'C'],
      ['checksum refusal + error body', 'E', 'A'],
    ]),
    '',
    inProcessTable(inProcess),
    '',
    dbTable(db),
  ].join('\n');
  process.stdout.write(`${out}\n`);

  await writeResults('auth', { environment, settings, http, inProcess, db });
}

runBench('auth', main, () => stack?.stop());
