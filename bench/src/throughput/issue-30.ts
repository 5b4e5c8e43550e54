import type { HttpRouteResult } from '../lib/http-rounds';
import { median } from '../lib/stats';
import type { PhaseResult } from '../webhooks/report';
import type { IssueRow } from './issue-17';

/**
 * Issue 30's two restated rows, one definition: issue 17's delivery and list figures measured
 * against floors that do strictly less, in the same run. The deliveries against 1c, a
 * graphile-worker job that only POSTs once to the same receiver; the list against target 4,
 * a bare `node:http` server doing the same key check, rate limit and tenant binding.
 */
export const FLOOR_BARS = { deliveries: 0.8, list: 0.9 };

/** The webhook phases whose deliveries/s issue 30 divides by 1c's jobs/s. */
export const FLOOR_PHASES = [
  ['one-subscription-prequeued', 'deliveries/s, one subscription, pre-queued ÷ 1c', '0.44–0.54×'],
  ['fanout', 'fan-out 100 events × 100 subscriptions ÷ 1c', '0.44–0.54×'],
] as const;

const rateOf = (p: PhaseResult) => median(p.rounds.map((s) => s.perSec));
const othersOf = (...ps: PhaseResult[]) =>
  median(ps.flatMap((p) => p.rounds.map((s) => s.cpu.othersPct)));

export function webhookFloorRows(phases: readonly PhaseResult[]): IssueRow[] {
  const floor = phases.find((p) => p.key === 'noop-post');
  if (!floor) throw new Error('webhooks results without the phase noop-post (1c)');
  return FLOOR_PHASES.flatMap(([key, figure, today]) => {
    const phase = phases.find((p) => p.key === key);
    if (!phase) return [];
    const ratio = rateOf(phase) / rateOf(floor);
    return [
      {
        figure,
        today,
        values: [rateOf(phase), rateOf(floor)] as [number, number],
        ratio,
        unit: '/s',
        bar: `≥ ${FLOOR_BARS.deliveries}`,
        met: ratio >= FLOOR_BARS.deliveries,
        othersPct: othersOf(phase, floor),
      },
    ];
  });
}

/** `http` as `pnpm bench list` measures it: target 4 ("bare + auth + RLS") fourth, the portal last. */
export function listFloorRows(http: readonly HttpRouteResult[]): IssueRow[] {
  const floor = http.find((r) => r.route.startsWith('4 '));
  const portal = http[http.length - 1]!;
  if (!floor) throw new Error('list results without target 4 (bare + auth + RLS)');
  const ratio = portal.reqPerSec / floor.reqPerSec;
  return [
    {
      figure: 'list of 50 with an API key ÷ bare + auth + RLS (target 4)',
      today: '0.63–0.81×',
      values: [portal.reqPerSec, floor.reqPerSec],
      ratio,
      unit: ' req/s',
      bar: `≥ ${FLOOR_BARS.list}`,
      met: ratio >= FLOOR_BARS.list,
      othersPct: median([portal.othersCpuPct, floor.othersCpuPct]),
    },
  ];
}
