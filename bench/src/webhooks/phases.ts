import type pg from 'pg';
import {
  type DeliveryContext,
  measureFanout,
  measureInsertsUnwatched,
  measureInsertsWorkerStopped,
  measureOneSubscriptionLive,
  measureOneSubscriptionPrequeued,
} from './delivery-phases';
import { measureLatency } from './latency-phase';
import { measureNoop, type NoopSettings } from './noop-phase';
import type { PhaseSample } from './phase';
import type { PhaseResult } from './report';

export interface PhaseSizes {
  noopJobs: number;
  fanoutEvents: number;
  fanout: number;
  events: number;
  inserters: number;
  latencyEvents: number;
  latencyIntervalMs: number;
}

/** A phase to run once per round, and the samples it has gathered. */
export type Phase = PhaseResult & { run: () => Promise<PhaseSample> };

/** Every measured phase, in the order of the report (rounds rotate it). */
export function phaseList(
  db: pg.Pool,
  ctx: DeliveryContext,
  noop: NoopSettings,
  s: PhaseSizes,
): Phase[] {
  const list: Array<Omit<Phase, 'rounds'>> = [
    {
      key: 'noop-worker-preset',
      name: '1a no-op jobs, the worker’s preset',
      unit: 'jobs',
      run: () => measureNoop(db, 'worker', noop),
    },
    {
      key: 'noop-default-preset',
      name: '1b no-op jobs, graphile-worker’s defaults',
      unit: 'jobs',
      run: () => measureNoop(db, 'default', noop),
    },
    {
      key: 'noop-post',
      name: '1c no-op jobs + one POST each, no database',
      unit: 'jobs',
      run: () => measureNoop(db, 'worker', noop, { receiver: ctx.receiver }),
    },
    {
      key: 'fanout',
      name: `2  fan-out: ${s.fanoutEvents} events × ${s.fanout} subscriptions`,
      unit: 'deliveries',
      run: () => measureFanout(ctx, s.fanoutEvents, s.fanout),
    },
    {
      key: 'one-subscription-live',
      name: `3a one subscription, ${s.inserters} clients inserting`,
      unit: 'deliveries',
      run: () => measureOneSubscriptionLive(ctx, s.events, s.inserters),
    },
    {
      key: 'inserts-unwatched',
      name: `3c ${s.inserters} clients inserting, nobody watching`,
      unit: 'inserts',
      run: () => measureInsertsUnwatched(ctx, s.events, s.inserters),
    },
    {
      key: 'inserts-watched-alone',
      name: `3d ${s.inserters} clients inserting, watched, worker stopped`,
      unit: 'inserts',
      run: () => measureInsertsWorkerStopped(ctx, s.events, s.inserters, true),
    },
    {
      key: 'inserts-unwatched-alone',
      name: `3e ${s.inserters} clients inserting, nobody watching, worker stopped`,
      unit: 'inserts',
      run: () => measureInsertsWorkerStopped(ctx, s.events, s.inserters, false),
    },
    {
      key: 'one-subscription-prequeued',
      name: '3b one subscription, pre-queued',
      unit: 'deliveries',
      run: () => measureOneSubscriptionPrequeued(ctx, s.events),
    },
    {
      key: 'latency',
      name: `4  latency: 1 event / ${s.latencyIntervalMs} ms`,
      unit: 'deliveries',
      run: () => measureLatency(ctx, s.latencyEvents, s.latencyIntervalMs),
    },
  ];
  return list.map((p) => ({ ...p, rounds: [] }));
}
