import { f, table } from '../lib/report';
import type { InProcessCost } from './in-process-costs';

/** In-process steps: µs per operation. */
export function inProcessTable(costs: InProcessCost[]): string {
  return table(
    ['in-process step', 'µs/op', 'ops/s'],
    costs.map((c) => [c.step, f(c.usPerOp, 2), f(c.opsPerSec)]),
  );
}
