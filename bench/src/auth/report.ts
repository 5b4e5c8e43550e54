import { f, table } from '../lib/report';
import type { DbCost } from './db-costs';
import type { InProcessCost } from './in-process-costs';

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
