import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { catalogue, type Resource, referencedResources } from '@erp/contract';
import pg from 'pg';
import { sampleBody } from '../../apps/portal/seed/samples';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type BenchDatabase, startDatabase } from './lib/database';
import { f, table } from './lib/report';
import { median } from './lib/stats';
import {
  insertStatement,
  updateStatement,
  type Variant,
  type WriteStatement,
} from './write-path/statements';

/**
 * `pnpm bench write-path`: what recording a write's history row (and its event) costs. The
 * resource engine's own INSERT and UPDATE of sales orders, run by concurrent writers straight
 * against PostgreSQL (as `erp_app`, row-level security on, one statement per transaction, as
 * the portal runs them), in three forms interleaved round by round: the engine's statement,
 * the same without its history CTE, and the same without history or event. See README.md.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 4),
  writers: envInt('BENCH_CONNECTIONS', 8),
  records: envInt('BENCH_RECORDS', 300),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
};
const VARIANTS: Variant[] = ['engine', 'no history', 'bare'];
const resource = catalogue.find((r) => r.name === 'sales_order')!;

let database: BenchDatabase | undefined;

interface Writer {
  client: pg.Client;
  /** Its PostgreSQL backend, whose CPU time /proc reports (the cluster runs on this machine). */
  backendPid: number;
  tenantId: string;
  body: Record<string, unknown>;
  ids: string[];
}

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}) and migrating…`);
  database = await startDatabase('erp_bench', settings.ephemeral);
  const db = database;
  // One tenant per writer: document numbers are a per-tenant row lock, which would otherwise
  // serialise every insert whatever the statement around it.
  log(
    `${settings.writers} tenants, each with its references and ${settings.records} sales orders…`,
  );
  const writers: Writer[] = [];
  for (let i = 0; i < settings.writers; i++) writers.push(await provisionWriter(db.url, i));

  const results: Record<string, Record<Variant, number[]>> = { insert: blank(), update: blank() };
  const pgCpu: Record<string, Record<Variant, number[]>> = { insert: blank(), update: blank() };
  const checks: string[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    for (const op of ['insert', 'update'] as const) {
      for (const variant of rotate(VARIANTS, round)) {
        const statements = await Promise.all(
          writers.map((w) =>
            op === 'insert'
              ? insertStatement(resource, w.tenantId, w.body, variant)
              : updateStatement(resource, w.tenantId, variant),
          ),
        );
        const before = await counts(db.url);
        const cpuBefore = backendsCpuNs(writers);
        const writes = await runFor(settings.seconds, writers, statements, op);
        const cpuUs = (backendsCpuNs(writers) - cpuBefore) / 1000 / writes;
        const after = await counts(db.url);
        const rate = writes / settings.seconds;
        results[op]![variant].push(rate);
        pgCpu[op]![variant].push(cpuUs);
        log(`  round ${round} ${op} ${variant}: ${f(rate)} writes/s, ${f(cpuUs)} µs PG CPU/write`);
        if (round === 1) checks.push(check(op, variant, writes, before, after));
      }
    }
  }

  const rows = (['insert', 'update'] as const).flatMap((op) => {
    const medians = (of: Record<string, Record<Variant, number[]>>) =>
      Object.fromEntries(VARIANTS.map((v) => [v, median(of[op]![v])])) as Record<Variant, number>;
    const m = medians(results);
    const cpu = medians(pgCpu);
    return VARIANTS.map((v) => [
      `${op} — ${v}`,
      f(m[v]),
      results[op]![v].map((r) => f(r)).join(' / '),
      f(m[v] / m.bare, 2),
      f(m[v] / m['no history'], 2),
      f(cpu[v]),
      f(cpu[v] / cpu.bare, 2),
      f(cpu[v] / cpu['no history'], 2),
    ]);
  });
  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    postgres: `${db.postgresVersion} (${durability})`,
  };
  const out = [
    `\n== Write path: the engine's sales-order writes with and without history and event rows (${environment.cpus}; Node ${environment.node}; PostgreSQL ${environment.postgres})`,
    `   ${settings.writers} writers (one connection and tenant each, erp_app with RLS), one statement per transaction; medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s`,
    '   engine: record + event (creations only: sales_order.created) + history row; no history: the same without the history CTE and the old row it diffs; bare: the record alone',
    `   insert: a sales order with ${(writers[0]!.body.lines as unknown[]).length} lines (number, totals); update: PATCH notes of a random one of the writer’s ${settings.records} records\n`,
    table(
      [
        'write — form',
        'writes/s',
        'rounds',
        '× bare',
        '× no history',
        'PG CPU µs/write',
        'CPU × bare',
        'CPU × no history',
      ],
      rows,
    ),
    "   PG CPU: the writers' backends' CPU time (/proc/<pid>/schedstat) per write, steadier than writes/s on a shared machine",
    '',
    ...checks,
  ].join('\n');
  process.stdout.write(`${out}\n`);
  await Promise.all(writers.map((w) => w.client.end()));
  await writeResults('write-path', { environment, settings, results, pgCpu, checks });
}

const blank = () => ({ engine: [], 'no history': [], bare: [] }) as Record<Variant, number[]>;
/** Round r starts at a different variant, so no form always runs first (or last). */
const rotate = <T>(list: T[], round: number) =>
  list.map((_, i) => list[(i + round - 1) % list.length]!);

/** A tenant with the records a sales order refers to and `records` sales orders, made by the engine. */
async function provisionWriter(url: string, index: number): Promise<Writer> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const slug = `bench-${index}-${randomBytes(3).toString('hex')}`;
  const { rows } = await admin.query<{ id: string }>(
    'INSERT INTO tenants (slug, name, modules) VALUES ($1, $1, $2) RETURNING id',
    [slug, ['sales', 'purchasing', 'inventory', 'accounting', 'crm']],
  );
  await admin.end();
  const tenantId = rows[0]!.id;
  const client = new pg.Client({ connectionString: url, application_name: 'bench-writer' });
  await client.connect();
  await client.query(`SET ROLE erp_app; SELECT set_config('app.tenant_id', '${tenantId}', false)`);
  const backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
    .rows[0]!.pid;
  const refs = new Map<string, string[]>([['user', []]]);
  for (const dependency of dependenciesOf(resource)) {
    const ids: string[] = [];
    for (let n = 0; n < 2; n++) ids.push(await insertOne(client, dependency, tenantId, refs, n));
    refs.set(dependency.name, ids);
  }
  const body = sampleBody(resource, 1, refs) as Record<string, unknown>;
  const ids: string[] = [];
  for (let n = 0; n < settings.records; n++)
    ids.push(await insertOne(client, resource, tenantId, refs, n));
  return { client, backendPid, tenantId, body, ids };
}

async function insertOne(
  client: pg.Client,
  target: Resource,
  tenantId: string,
  refs: Map<string, string[]>,
  n: number,
): Promise<string> {
  const body = sampleBody(target, n, refs) as Record<string, unknown>;
  const { text, values } = await insertStatement(target, tenantId, body, 'engine');
  const { rows } = await client.query<{ j: string }>(text, values);
  return (JSON.parse(rows[0]!.j) as { id: string }).id;
}

/** The resources `r` refers to, transitively, in the catalogue's (dependency) order. */
function dependenciesOf(r: Resource): Resource[] {
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const n of referencedResources(catalogue.find((x) => x.name === name)!)) visit(n);
  };
  visit(r.name);
  return catalogue.filter((x) => needed.has(x.name) && x.name !== r.name);
}

/** Every writer runs its statement back to back for `seconds`; the number of writes made. */
async function runFor(
  seconds: number,
  writers: Writer[],
  statements: WriteStatement[],
  op: 'insert' | 'update',
): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let writes = 0;
  await Promise.all(
    writers.map(async (w, i) => {
      const { text, values, vary } = statements[i]!;
      const mine = [...values];
      while (performance.now() < deadline) {
        if (op === 'update') {
          mine[vary.id!] = w.ids[Math.floor(Math.random() * w.ids.length)];
          mine[vary.notes!] = randomBytes(6).toString('hex');
        }
        await w.client.query(text, mine);
        writes++;
      }
    }),
  );
  return writes;
}

/** Nanoseconds the writers' backends have run on a CPU so far. */
function backendsCpuNs(writers: Writer[]): number {
  return writers.reduce(
    (sum, w) => sum + Number(readFileSync(`/proc/${w.backendPid}/schedstat`, 'utf8').split(' ')[0]),
    0,
  );
}

async function counts(url: string): Promise<{ history: number; events: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    'SELECT (SELECT count(*) FROM record_history)::int AS history, (SELECT count(*) FROM events)::int AS events',
  );
  await client.end();
  return rows[0];
}

/** That each form wrote what it claims: history rows and events per write. */
function check(
  op: string,
  variant: Variant,
  writes: number,
  before: { history: number; events: number },
  after: { history: number; events: number },
): string {
  const history = after.history - before.history;
  const events = after.events - before.events;
  const expected = {
    history: variant === 'engine' ? writes : 0,
    events: variant !== 'bare' && op === 'insert' ? writes : 0,
  };
  const ok = history === expected.history && events === expected.events;
  if (!ok)
    throw new Error(
      `${op} ${variant}: ${writes} writes wrote ${history} history rows and ${events} events (expected ${expected.history} and ${expected.events})`,
    );
  return `   check ${op} — ${variant}: ${writes} writes, ${history} history rows, ${events} events`;
}

runBench('write-path', main, async () => {
  await database?.stop();
});
