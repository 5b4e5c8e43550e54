import type { DbCost } from '../lib/db-timing';
import { dbTable, f, table } from '../lib/report';
import { median, quantile } from '../lib/stats';
import { BARS, issueTable, webhookIssueRows } from '../throughput/issue-17';
import { FLOOR_BARS, FLOOR_PHASES } from '../throughput/issue-30';
import type { PhaseSample } from './phase';

/** A phase's samples across rounds, and its name in the tables. */
export interface PhaseResult {
  key: string;
  name: string;
  unit: 'jobs' | 'deliveries' | 'inserts';
  rounds: PhaseSample[];
}

const med = (r: PhaseResult, pick: (s: PhaseSample) => number) => median(r.rounds.map(pick));

/** Throughput, side by side: medians across rounds, ratio to the no-op ceiling. */
export function throughputTable(results: PhaseResult[], ceiling: PhaseResult): string {
  return table(
    [
      'phase',
      'items',
      'items/s',
      'rounds min–max',
      '× no-op',
      'worker CPU µs/item',
      'PG CPU µs/item',
      'receiver CPU µs/item',
      'bench CPU µs/item',
      "others' CPU %",
    ],
    results.map((r) => {
      const rates = r.rounds.map((s) => s.perSec);
      return [
        r.name,
        `${r.rounds[0]?.items ?? 0} ${r.unit}`,
        f(median(rates)),
        `${f(Math.min(...rates))}–${f(Math.max(...rates))}`,
        r.unit === 'inserts' ? '–' : f(median(rates) / med(ceiling, (s) => s.perSec), 2),
        f(med(r, (s) => s.cpu.workerUs)),
        f(med(r, (s) => s.cpu.postgresUs)),
        f(med(r, (s) => s.cpu.receiverUs)),
        f(med(r, (s) => s.cpu.benchUs)),
        f(med(r, (s) => s.cpu.othersPct)),
      ];
    }),
  );
}

/** The issue's figure for one phase: deliveries/s ÷ no-op jobs/s, overall and round by round. */
export function ratioLine(r: PhaseResult, ceiling: PhaseResult, bar: number): string {
  const ratio = med(r, (s) => s.perSec) / med(ceiling, (s) => s.perSec);
  const perRound = r.rounds.map((s, i) => f(s.perSec / ceiling.rounds[i]!.perSec, 2));
  return `   ${r.name}: ${f(ratio, 2)}× the no-op ceiling (round by round: ${perRound.join(', ')}); target ≥ ${bar}: ${ratio >= bar ? 'met' : 'NOT met'}`;
}

/**
 * Issue 30's figure: deliveries/s of 2 and 3b ÷ 1c's jobs/s (a job that only POSTs once),
 * overall and round by round, and each one's CPU per item summed over the processes.
 */
export function floorLines(phases: PhaseResult[]): string[] {
  const floor = phases.find((p) => p.key === 'noop-post');
  if (!floor) return [];
  const total = (s: PhaseSample) => s.cpu.workerUs + s.cpu.postgresUs + s.cpu.receiverUs;
  const floorCpu = med(floor, total);
  const keys: readonly string[] = FLOOR_PHASES.map(([key]) => key);
  return phases
    .filter((p) => keys.includes(p.key))
    .map((p) => {
      const ratio = med(p, (s) => s.perSec) / med(floor, (s) => s.perSec);
      const perRound = p.rounds.map((s, i) => f(s.perSec / floor.rounds[i]!.perSec, 2));
      const drain = p.rounds.some((s) => 'postgresDrainUs' in s.notes)
        ? ` (PostgreSQL over the drain alone: ${f(med(p, (s) => s.notes.postgresDrainUs ?? Number.NaN))} µs)`
        : '';
      return `   ${p.name} ÷ 1c: ${f(ratio, 2)} (round by round: ${perRound.join(', ')}; bar ≥ ${FLOOR_BARS.deliveries}); worker + PostgreSQL + receiver CPU ${f(med(p, total))} µs a delivery against 1c's ${f(floorCpu)} µs a job${drain}`;
    });
}

/** Latency percentiles over every round's events pooled, and each round's p50. */
export function latencyTable(r: PhaseResult): string {
  const rows: Array<[string, (s: PhaseSample) => number[]]> = [
    ['COMMIT returned → request at the receiver', (s) => s.latency!.arrivalMs],
    ['COMMIT returned → delivery recorded (delivered_at)', (s) => s.latency!.recordedMs],
  ];
  return table(
    ['latency', 'events', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'p50 by round'],
    rows.map(([name, pick]) => {
      const all = Float64Array.from(r.rounds.flatMap(pick)).sort();
      const byRound = r.rounds.map((s) => f(quantile(Float64Array.from(pick(s)).sort(), 0.5), 1));
      return [
        name,
        all.length,
        f(quantile(all, 0.5), 1),
        f(quantile(all, 0.9), 1),
        f(quantile(all, 0.99), 1),
        f(all[all.length - 1] ?? Number.NaN, 1),
        byRound.join(', '),
      ];
    }),
  );
}

/** A pooled percentile of commit → arrival, the issue's latency figure. */
export function latencyQuantile(r: PhaseResult, q: number): number {
  return quantile(Float64Array.from(r.rounds.flatMap((s) => s.latency!.arrivalMs)).sort(), q);
}

export interface ReportInput {
  environment: { cpus: string; node: string; postgres: string; worker: string };
  settings: { rounds: number; noopJobs: number; inserters: number; events: number };
  phases: PhaseResult[];
  dbCosts: DbCost[];
}

/** The whole printed report: header, throughput, ratios, latency, database calls, checks. */
export function renderReport({ environment: e, settings: s, phases, dbCosts }: ReportInput) {
  const byKey = new Map(phases.map((p) => [p.key, p]));
  const ceiling = byKey.get('noop-worker-preset')!;
  const httpFloor = byKey.get('noop-post')!;
  const live = byKey.get('one-subscription-live')!;
  const queued = byKey.get('one-subscription-prequeued')!;
  const latency = byKey.get('latency')!;
  const deliveries = phases.filter((p) => p.unit === 'deliveries');
  const unwatched = byKey.get('inserts-unwatched')!;
  const sum = (pick: (r: PhaseSample) => number) =>
    deliveries.reduce((total, p) => total + p.rounds.reduce((t, r) => t + pick(r), 0), 0);
  const note = (p: PhaseResult, key: string) =>
    median(p.rounds.map((r) => r.notes[key] ?? Number.NaN));
  return [
    `\n== Webhook deliveries vs graphile-worker's no-op ceiling, one run (${e.cpus}; Node ${e.node}; PostgreSQL ${e.postgres})`,
    `   worker: ${e.worker}`,
    `   no-op workers (src/webhooks/noop-worker.ts): same pool and concurrency; 1a the worker's preset, 1b graphile-worker's defaults (no local queue, one completion per job), 1c the worker's preset and one undici POST to the receiver per job; ${s.noopJobs} jobs enqueued in one add_jobs, timed from its COMMIT to the last job run`,
    '   1a, 1b and 3b enqueue their backlog and ANALYZE the queue in one transaction, so that the job fetch is planned for a backlog whether auto-analyze has run yet or not',
    '   receiver: node:http on 127.0.0.1 in its own process, keep-alive, 200 "ok", every X-Service-Signature verified',
    `   medians of ${s.rounds} rounds, phases in rotating order; deliveries timed to the last delivered_at in the database; worker, PostgreSQL, receiver and this process share the cores`,
    '   CPU µs per job (1), delivery (2, 3a, 3b, 4) or insert (3c, 3d, 3e); PostgreSQL includes the inserts; "others\' CPU %": other processes meanwhile (% of one core)\n',
    throughputTable(
      phases.filter((p) => p !== latency),
      ceiling,
    ),
    '',
    `   3a: ${s.inserters} clients inserted ${s.events} events at ${f(note(live, 'insertsPerSec'))}/s (3c, nobody watching: ${f(note(unwatched, 'insertsPerSec'))}/s; worker stopped, 3d watched: ${f(note(byKey.get('inserts-watched-alone')!, 'insertsPerSec'))}/s, 3e nobody watching: ${f(note(byKey.get('inserts-unwatched-alone')!, 'insertsPerSec'))}/s); the last delivery was recorded ${f(note(live, 'lagAfterLastCommitMs'))} ms after the last COMMIT`,
    `   3b: timed from the first attempt; COMMIT → first attempt (the numbering, the first claim) ${f(note(queued, 'commitToFirstAttemptMs'))} ms, not counted`,
    '',
    ...[
      ['fanout', BARS.fanout],
      ['one-subscription-live', BARS.live],
      ['one-subscription-prequeued', BARS.prequeued],
    ].map(([key, bar]) => ratioLine(byKey.get(key as string)!, ceiling, bar as number)),
    `   1c, a job that makes one POST and no database statement, reaches ${f(med(httpFloor, (r) => r.perSec) / med(ceiling, (r) => r.perSec), 2)}× the no-op ceiling: the most a one-delivery job can reach on this machine`,
    `   3c, the same inserts with nobody watching, run at ${f(med(unwatched, (r) => r.perSec) / med(ceiling, (r) => r.perSec), 2)}× the no-op ceiling: 3a cannot deliver events faster than they are inserted`,
    '',
    latencyTable(latency),
    '',
    'Database calls of one delivery, alone (worker stopped; OUTBOX_READY, CLAIM_EVENTS and RECORD_ATTEMPTS are apps/worker/src/webhooks/statements.ts):',
    dbTable(dbCosts),
    claimedDeliveryLine(dbCosts),
    '',
    "== Issue 30, the worker's delivery floor (2 and 3b ÷ 1c)",
    ...floorLines(phases),
    '',
    `== Issue 17, the webhook rows (medians of ${s.rounds} rounds; "others' CPU": the rest of the machine meanwhile, % of one core)`,
    issueTable(webhookIssueRows(phases)),
    '',
    `   checked: ${sum((r) => r.items)} deliveries, every one delivered at its first attempt and recorded, no webhook job or claim left; the receiver got every delivery id (${sum((r) => r.duplicates ?? 0)} duplicate requests), every signature valid`,
  ].join('\n');
}

/**
 * PostgreSQL's CPU per delivery claimed and recorded in batches of 100 (one caller each), the
 * drain's two statements per delivery (issue 30's "PostgreSQL per claimed delivery").
 */
function claimedDeliveryLine(dbCosts: DbCost[]): string {
  const perDelivery = (prefix: string) =>
    (dbCosts.find((c) => c.call.startsWith(prefix) && c.concurrency === 1)?.postgresCpuUs ??
      Number.NaN) / 100;
  const claim = perDelivery('CLAIM_EVENTS, 1 event × 100 subscriptions');
  const record = perDelivery('RECORD_ATTEMPTS, 100 deliveries');
  return `   PostgreSQL CPU per delivery in batches of 100: claimed ${f(claim)} µs + recorded ${f(record)} µs = ${f(claim + record)} µs`;
}
