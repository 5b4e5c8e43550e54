import type { DbCost } from './db-costs';
import type { HttpRouteResult } from './http-rounds';
import type { InProcessCost } from './in-process-costs';

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

const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The side-by-side HTTP table: medians across rounds, ratios against the first route. */
export function httpTable(results: HttpRouteResult[]): string {
  const base = results[0]!;
  return table(
    [
      'route',
      'req/s',
      'rounds min–max',
      '× A',
      'p50 ms',
      'p99 ms',
      'portal CPU µs/req',
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
      f(r.portalCpuUs),
      f(r.postgresCpuUs),
      f(r.loadgenCpuUs),
      f(r.othersCpuPct),
    ]),
  );
}

/** Differences between two routes that differ by one step: the per-request cost of that step. */
export function stepTable(
  results: HttpRouteResult[],
  steps: Array<[string, string, string]>,
): string {
  const byName = new Map(results.map((r) => [r.route.slice(0, 1), r]));
  return table(
    ['step (route difference)', 'portal CPU µs', 'PG CPU µs', 'p50 ms', 'capacity µs/req'],
    steps.map(([label, with_, without]) => {
      const a = byName.get(with_)!;
      const b = byName.get(without)!;
      return [
        `${label} (${with_} − ${without})`,
        f(a.portalCpuUs - b.portalCpuUs),
        f(a.postgresCpuUs - b.postgresCpuUs),
        f(a.p50Ms - b.p50Ms, 2),
        // Wall time per request at saturation: what the step costs in requests/s on this machine.
        f(1e6 / a.reqPerSec - 1e6 / b.reqPerSec),
      ];
    }),
  );
}

/** In-process steps: µs per operation. */
export function inProcessTable(costs: InProcessCost[]): string {
  return table(
    ['in-process step', 'µs/op', 'ops/s'],
    costs.map((c) => [c.step, f(c.usPerOp, 2), f(c.opsPerSec)]),
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
