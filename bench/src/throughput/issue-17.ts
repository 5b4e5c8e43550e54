import type { HttpRouteResult } from '../lib/http-rounds';
import { f, table } from '../lib/report';
import { median, quantile } from '../lib/stats';
import type { PhaseResult } from '../webhooks/report';

/**
 * Issue 17's table, one definition: its rows, the figure each had before the issue, the bars,
 * and how each is computed from a run of `pnpm bench webhooks` and `pnpm bench list`. Both
 * benchmarks print their rows with it; `pnpm bench throughput` runs both and prints all of them.
 */
export const BARS = {
  prequeued: 0.5,
  live: 0.3,
  fanout: 0.6,
  inserts: 0.8,
  p50Ms: 20,
  p99Ms: 100,
  list: 0.8,
  /** PostgreSQL CPU per list request before the issue, µs; the bar is half of it. */
  listPgBeforeUs: 1100,
};

/** A row: what was measured (numbers, so runs can be combined), against its bar. */
export interface IssueRow {
  figure: string;
  today: string;
  /** The figure's numerator and denominator (a rate and its reference), or p50 and p99. */
  values: [number, number];
  /** values[0] ÷ values[1] for ratios; null for the latency row. */
  ratio: number | null;
  unit: string;
  bar: string;
  met: boolean;
  /** Other processes' CPU meanwhile, % of one core (medians of the rounds). */
  othersPct: number;
}

const med = (r: PhaseResult, pick: (s: PhaseResult['rounds'][number]) => number) =>
  median(r.rounds.map(pick));

export function webhookIssueRows(phases: readonly PhaseResult[]): IssueRow[] {
  const byKey = new Map(phases.map((p) => [p.key, p]));
  const get = (key: string) => {
    const phase = byKey.get(key);
    if (!phase) throw new Error(`webhooks results without the phase ${key}`);
    return phase;
  };
  const ceiling = get('noop-worker-preset');
  const rate = (r: PhaseResult) => med(r, (s) => s.perSec);
  const others = (...rs: PhaseResult[]) =>
    median(rs.flatMap((r) => r.rounds.map((s) => s.cpu.othersPct)));
  const vsCeiling = (key: string, figure: string, today: string, bar: number): IssueRow => {
    const r = get(key);
    const ratio = rate(r) / rate(ceiling);
    return {
      figure,
      today,
      values: [rate(r), rate(ceiling)],
      ratio,
      unit: '/s',
      bar: `≥ ${bar}`,
      met: ratio >= bar,
      othersPct: others(r, ceiling),
    };
  };
  const live = get('one-subscription-live');
  const unwatched = get('inserts-unwatched');
  const watchedAlone = get('inserts-watched-alone');
  const unwatchedAlone = get('inserts-unwatched-alone');
  const watchedInserts = med(live, (s) => s.notes.insertsPerSec ?? Number.NaN);
  const latency = get('latency');
  const arrivals = Float64Array.from(latency.rounds.flatMap((s) => s.latency!.arrivalMs)).sort();
  const p50 = quantile(arrivals, 0.5);
  const p99 = quantile(arrivals, 0.99);
  return [
    vsCeiling(
      'one-subscription-prequeued',
      'deliveries/s, one subscription, pre-queued ÷ no-op ceiling',
      '0.14×',
      BARS.prequeued,
    ),
    vsCeiling(
      'one-subscription-live',
      'deliveries/s while 20 clients insert watched records ÷ ceiling',
      '0.04×',
      BARS.live,
    ),
    vsCeiling('fanout', 'fan-out 100 events × 100 subscriptions ÷ ceiling', '0.29×', BARS.fanout),
    {
      figure: 'inserts/s of a watched resource ÷ an unwatched one',
      today: '~0.1–0.3×',
      values: [watchedInserts, rate(unwatched)],
      ratio: watchedInserts / rate(unwatched),
      unit: '/s',
      bar: `≥ ${BARS.inserts}`,
      met: watchedInserts / rate(unwatched) >= BARS.inserts,
      othersPct: others(live, unwatched),
    },
    {
      figure: '  the same, worker stopped (3d ÷ 3e: the write path alone)',
      today: '',
      values: [rate(watchedAlone), rate(unwatchedAlone)],
      ratio: rate(watchedAlone) / rate(unwatchedAlone),
      unit: '/s',
      bar: `≥ ${BARS.inserts}`,
      met: rate(watchedAlone) / rate(unwatchedAlone) >= BARS.inserts,
      othersPct: others(watchedAlone, unwatchedAlone),
    },
    {
      figure: 'commit → receiver p50 / p99',
      today: '4.4 / 16.5 ms',
      values: [p50, p99],
      ratio: null,
      unit: 'ms',
      bar: `< ${BARS.p50Ms} / ${BARS.p99Ms} ms`,
      met: p50 < BARS.p50Ms && p99 < BARS.p99Ms,
      othersPct: others(latency),
    },
  ];
}

/** `http`: bare first, the portal last (as `pnpm bench list` measures them). */
export function listIssueRows(http: readonly HttpRouteResult[]): IssueRow[] {
  const bare = http[0]!;
  const portal = http[http.length - 1]!;
  const ratio = portal.reqPerSec / bare.reqPerSec;
  return [
    {
      figure: 'list of 50 sales orders with an API key ÷ bare node:http + pg, same SQL',
      today: '0.61×',
      values: [portal.reqPerSec, bare.reqPerSec],
      ratio,
      unit: ' req/s',
      bar: `≥ ${BARS.list}`,
      met: ratio >= BARS.list,
      othersPct: median([portal.othersCpuPct, bare.othersCpuPct]),
    },
    {
      figure: 'PostgreSQL CPU per list request',
      today: `~${BARS.listPgBeforeUs} µs`,
      values: [portal.postgresCpuUs, BARS.listPgBeforeUs],
      ratio: portal.postgresCpuUs / BARS.listPgBeforeUs,
      unit: ' µs',
      bar: `≤ ${BARS.listPgBeforeUs / 2} µs`,
      met: portal.postgresCpuUs <= BARS.listPgBeforeUs / 2,
      othersPct: portal.othersCpuPct,
    },
  ];
}

/** Each row's numbers as the median of the runs' (rows in the same order in every run). */
export function medianRows(runs: readonly IssueRow[][]): IssueRow[] {
  return runs[0]!.map((first, i) => {
    const rows = runs.map((run) => run[i]!);
    const values: [number, number] = [
      median(rows.map((r) => r.values[0])),
      median(rows.map((r) => r.values[1])),
    ];
    const ratio = first.ratio === null ? null : median(rows.map((r) => r.ratio!));
    return {
      ...first,
      values,
      ratio,
      othersPct: median(rows.map((r) => r.othersPct)),
      met: rows.every((r) => r.met),
    };
  });
}

export function issueTable(rows: readonly IssueRow[], issue = 17): string {
  return table(
    [`figure (issue ${issue})`, 'before', 'measured', 'ratio', 'bar', '', "others' CPU"],
    rows.map((r) => [
      r.figure,
      r.today,
      r.ratio === null
        ? `${f(r.values[0], 1)} / ${f(r.values[1], 1)} ${r.unit}`
        : r.unit === ' µs'
          ? `${f(r.values[0])} µs`
          : `${f(r.values[0])} ÷ ${f(r.values[1])}${r.unit}`,
      r.ratio === null ? '' : `${f(r.ratio, 2)}×`,
      r.bar,
      r.met ? 'met' : 'NOT met',
      `${f(r.othersPct)} %`,
    ]),
  );
}
