import type { DbCost } from './db-timing';
import type { HttpRouteResult } from './http-rounds';

/** Left-aligns the first column and right-aligns the others, like a printed table. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [
    line(headers),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}

/** A number with `digits` decimals, or `-` when there is none. */
export const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** A route's short label: the first word of its name (`A`, `1`, …), used by step tables. */
const labelOf = (r: HttpRouteResult) => r.route.split(' ')[0]!;

/**
 * The side-by-side HTTP table: medians across rounds, ratios against the first route.
 * `server` names the process whose CPU the server column counts ("portal", "server").
 */
export function httpTable(results: HttpRouteResult[], server = 'portal'): string {
  const base = results[0]!;
  return table(
    [
      'route',
      'req/s',
      'rounds min–max',
      `× ${labelOf(base)}`,
      'p50 ms',
      'p99 ms',
      `${server} CPU µs/req`,
      'PG CPU µs/req',
      'loadgen CPU µs/req',
      "others' CPU %",
    ],
    results.map((r) => [
      r.route,
      f(r.reqPerSec),
      `${f(Math.min(...r.rounds.map((x) => x.reqPerSec)))}–${f(Math.max(...r.rounds.map((x) => x.reqPerSec)))}`,
      f(r.reqPerSec / base.reqPerSec, 2),
      f(r.p50Ms, 2),
      f(r.p99Ms, 2),
      f(r.serverCpuUs),
      f(r.postgresCpuUs),
      f(r.loadgenCpuUs),
      f(r.othersCpuPct),
    ]),
  );
}

/**
 * Differences between two routes that differ by one step: the per-request cost of that step.
 * Steps name their routes by label: `['key check', 'C', 'E']` is C − E.
 */
export function stepTable(
  results: HttpRouteResult[],
  steps: Array<[string, string, string]>,
  server = 'portal',
): string {
  const byLabel = new Map(results.map((r) => [labelOf(r), r]));
  return table(
    ['step (route difference)', `${server} CPU µs`, 'PG CPU µs', 'p50 ms', 'capacity µs/req'],
    steps.map(([label, with_, without]) => {
      const a = byLabel.get(with_)!;
      const b = byLabel.get(without)!;
      return [
        `${label} (${with_} − ${without})`,
        f(a.serverCpuUs - b.serverCpuUs),
        f(a.postgresCpuUs - b.postgresCpuUs),
        f(a.p50Ms - b.p50Ms, 2),
        // Wall time per request at saturation: what the step costs in requests/s on this machine.
        f(1e6 / a.reqPerSec - 1e6 / b.reqPerSec),
      ];
    }),
  );
}

/** Database calls, sequential then concurrent. */
export function dbTable(costs: DbCost[]): string {
  return table(
    [
      'database call',
      'callers',
      'calls/s',
      'p50 µs',
      'p99 µs',
      'PG CPU µs/call',
      'client CPU µs/call',
    ],
    costs.map((c) => [
      c.call,
      c.concurrency,
      f(c.callsPerSec),
      f(c.p50Us),
      f(c.p99Us),
      f(c.postgresCpuUs),
      f(c.clientCpuUs),
    ]),
  );
}
