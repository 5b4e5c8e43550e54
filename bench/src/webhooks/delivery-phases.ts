import { clock } from './child';
import { awaitDeliveries, type DeliveryOutcome, deliveryProblems } from './completion';
import { type CpuPids, type CpuSample, cpuPerItem, sampleCpu } from './cpu-sample';
import {
  createSubscriptions,
  createTenant,
  type FixtureDeps,
  insertEventsAtOnce,
  insertEventsConcurrently,
} from './fixtures';
import { type PgCpu, pgCpu, pgCpuLine } from './pg-breakdown';
import type { PhaseSample } from './phase';
import { enqueueAnalyzed } from './queue-stats';
import type { WorkerProcess } from './worker-process';

/** What the delivery phases share: fixtures, the real worker (frozen by 3d and 3e), pids. */
export interface DeliveryContext extends FixtureDeps {
  postmasterPid: number;
  readonly worker: WorkerProcess;
  /** Warms the running worker (deliveries of each shape, untimed) at the start: no timed phase runs on a cold process. */
  warm(): Promise<void>;
}

/** `BENCH_PG_BREAKDOWN=1`: PostgreSQL's CPU by kind of process, printed per round of 2 and 3b. */
const BREAKDOWN = process.env.BENCH_PG_BREAKDOWN === '1';

let tenants = 0;
/** A fresh tenant per phase, so that each phase counts only its own deliveries. */
const freshTenant = (ctx: DeliveryContext, label: string) =>
  createTenant(ctx.db, `wh-${label}-${++tenants}`);

const pidsOf = (ctx: DeliveryContext) => ({
  worker: ctx.worker.pid,
  postmaster: ctx.postmasterPid,
  receiver: ctx.receiver.pid,
});

/** Fails on anything that makes the figures untrustworthy. */
function checked(outcome: DeliveryOutcome): DeliveryOutcome {
  const problems = deliveryProblems(outcome);
  if (problems.length) throw new Error(problems.join('; '));
  return outcome;
}

/**
 * (2) Fan-out: `events` events inserted in one statement (one COMMIT), each wanted by
 * `subscriptions` subscriptions of the tenant; timed from that COMMIT to the last delivery
 * recorded `delivered`.
 */
export async function measureFanout(
  ctx: DeliveryContext,
  events: number,
  subscriptions: number,
): Promise<PhaseSample> {
  const tenantId = await freshTenant(ctx, 'fanout');
  const subscriptionIds = await createSubscriptions(ctx, tenantId, subscriptions);
  await ctx.receiver.call({ type: 'reset' });
  const pgFrom = BREAKDOWN ? await pgCpu(ctx.db, ctx.postmasterPid) : undefined;
  const from = sampleCpu(pidsOf(ctx));
  await insertEventsAtOnce(ctx.db, tenantId, events);
  const committedAt = clock();
  const expected = events * subscriptions;
  const outcome = checked(
    await awaitDeliveries(ctx.db, ctx.receiver, { subscriptionIds, expected }),
  );
  const to = sampleCpu(pidsOf(ctx));
  if (pgFrom) {
    const line = pgCpuLine(pgFrom, await pgCpu(ctx.db, ctx.postmasterPid), expected);
    process.stderr.write(`  2 PostgreSQL µs a delivery: ${line}\n`);
  }
  const seconds = (outcome.lastDeliveredAt - committedAt) / 1000;
  return {
    items: expected,
    seconds,
    perSec: expected / seconds,
    cpu: cpuPerItem(from, to, expected),
    notes: { firstAttemptAfterMs: outcome.firstAttemptAt - committedAt },
    duplicates: outcome.receiver.duplicates,
  };
}

/**
 * (3a) One subscription, events as separate business transactions: `clients` connections
 * inserting one event per transaction, back to back, while the worker runs. Timed from the
 * first INSERT to the last delivery recorded; the producer's own rate is kept beside it.
 */
export async function measureOneSubscriptionLive(
  ctx: DeliveryContext,
  events: number,
  clients: number,
): Promise<PhaseSample> {
  const tenantId = await freshTenant(ctx, 'live');
  const subscriptionIds = await createSubscriptions(ctx, tenantId, 1);
  await ctx.receiver.call({ type: 'reset' });
  const from = sampleCpu(pidsOf(ctx));
  const startedAt = clock();
  const lastCommitAt = await insertEventsConcurrently(ctx.db, tenantId, events, clients);
  const outcome = checked(
    await awaitDeliveries(ctx.db, ctx.receiver, { subscriptionIds, expected: events }),
  );
  const to = sampleCpu(pidsOf(ctx));
  const seconds = (outcome.lastDeliveredAt - startedAt) / 1000;
  return {
    items: events,
    seconds,
    perSec: events / seconds,
    cpu: cpuPerItem(from, to, events),
    notes: {
      insertsPerSec: events / ((lastCommitAt - startedAt) / 1000),
      lagAfterLastCommitMs: outcome.lastDeliveredAt - lastCommitAt,
    },
    duplicates: outcome.receiver.duplicates,
  };
}

/**
 * (3c) The producer of 3a for a tenant nobody watches: `clients` connections inserting one
 * event per transaction while the worker runs. Its inserts/s against 3a's are the cost of being
 * watched, as the business write path (and the machine it shares) feels it.
 */
export async function measureInsertsUnwatched(
  ctx: DeliveryContext,
  events: number,
  clients: number,
): Promise<PhaseSample> {
  const tenantId = await freshTenant(ctx, 'unwatched');
  return timedInserts(ctx, pidsOf(ctx), tenantId, events, clients);
}

/** `clients` connections inserting `events` events, one per transaction: timed to the last COMMIT. */
async function timedInserts(
  ctx: DeliveryContext,
  pids: CpuPids,
  tenantId: string,
  events: number,
  clients: number,
): Promise<PhaseSample> {
  const from = sampleCpu(pids);
  const startedAt = clock();
  const lastCommitAt = await insertEventsConcurrently(ctx.db, tenantId, events, clients);
  const to = sampleCpu(pids);
  const seconds = (lastCommitAt - startedAt) / 1000;
  return {
    items: events,
    seconds,
    perSec: events / seconds,
    cpu: cpuPerItem(from, to, events),
    notes: { insertsPerSec: events / seconds },
  };
}

/**
 * (3d, 3e) 3a's producer with the worker stopped (frozen by SIGSTOP), for a watched tenant (3d)
 * and for one nobody watches (3e): the business write path alone, without the deliveries' CPU
 * on the same cores and without the worker numbering the events meanwhile (which 3c pays).
 * 3d ÷ 3e is what being watched costs the writer itself. The worker, thawed, then numbers the
 * events and delivers 3d's, which are checked as in 3a. The wake-up is disarmed once the
 * worker is frozen: a worker that was asleep leaves its lease armed for up to three polls, and every
 * write meanwhile NOTIFYs (notifying commits serialise), which would time the lease, not the
 * write path (measured: 3d at 1 901/s against 3e's 3 257/s when one phase met the lease).
 */
export async function measureInsertsWorkerStopped(
  ctx: DeliveryContext,
  events: number,
  clients: number,
  watched: boolean,
): Promise<PhaseSample> {
  const tenantId = await freshTenant(ctx, watched ? 'watched' : 'unwatched-stopped');
  const subscriptionIds = watched ? await createSubscriptions(ctx, tenantId, 1) : [];
  await ctx.receiver.call({ type: 'reset' });
  // Frozen, not stopped: the process 1c's comparison times stays the warm one (a fresh process
  // after each of 3d and 3e made the next phases time a worker still warming up: its CPU a
  // delivery fell round after round, 128 → 104 → 76 µs, in one run).
  ctx.worker.pause();
  let sample: PhaseSample;
  try {
    await ctx.db.query('UPDATE webhook_outbox_wake SET armed_until = NULL');
    sample = await timedInserts(ctx, { ...pidsOf(ctx), worker: null }, tenantId, events, clients);
  } finally {
    ctx.worker.resume();
  }
  if (!watched) return sample;
  const outcome = checked(
    await awaitDeliveries(ctx.db, ctx.receiver, { subscriptionIds, expected: events }),
  );
  return { ...sample, duplicates: outcome.receiver.duplicates };
}

/**
 * (3b) One subscription, pre-queued: `events` events inserted in one statement (the queue
 * analyzed in the same transaction, as for the no-op ceiling) while the worker runs, warm as
 * 1c's process is (it has drained every earlier phase; 1c's is warmed with 2,000 jobs). Timed
 * from its first attempt to the last delivery recorded: the worker's drain rate of a backlog,
 * the numbering and the first claim left out. Its CPU is counted from the first request the
 * receiver sees. (Until issue 30 the worker was stopped and a fresh one started, which made
 * 3b pay a cold process — JIT, new backends — that 1c's warm-up spares it.)
 */
export async function measureOneSubscriptionPrequeued(
  ctx: DeliveryContext,
  events: number,
): Promise<PhaseSample> {
  const tenantId = await freshTenant(ctx, 'queued');
  const subscriptionIds = await createSubscriptions(ctx, tenantId, 1);
  await ctx.receiver.call({ type: 'reset' });
  const from = sampleCpu(pidsOf(ctx));
  await enqueueAnalyzed(ctx.db, (client) => insertEventsAtOnce(client, tenantId, events));
  const committedAt = clock();
  let atFirst: { sample: CpuSample; count: number } | undefined;
  let pgFrom: Promise<PgCpu> | undefined;
  const outcome = checked(
    await awaitDeliveries(ctx.db, ctx.receiver, {
      subscriptionIds,
      expected: events,
      onFirstProgress: (count) => {
        atFirst = { sample: sampleCpu(pidsOf(ctx)), count };
        if (BREAKDOWN) pgFrom = pgCpu(ctx.db, ctx.postmasterPid);
      },
    }),
  );
  const to = sampleCpu(pidsOf(ctx));
  if (pgFrom) {
    const line = pgCpuLine(
      await pgFrom,
      await pgCpu(ctx.db, ctx.postmasterPid),
      events - atFirst!.count,
    );
    process.stderr.write(`  3b PostgreSQL µs a delivery over the drain: ${line}\n`);
  }
  const seconds = (outcome.lastDeliveredAt - outcome.firstAttemptAt) / 1000;
  return {
    items: events,
    seconds,
    perSec: events / seconds,
    cpu: cpuPerItem(from, to, events, {
      from: atFirst!.sample,
      items: events - atFirst!.count,
    }),
    notes: {
      enqueueMs: committedAt - from.at,
      commitToFirstAttemptMs: outcome.firstAttemptAt - committedAt,
      // PostgreSQL's CPU per delivery over the drain alone (the column counts the inserts and
      // the numbering too).
      postgresDrainUs:
        ((to.postgres - atFirst!.sample.postgres) * 1000) / (events - atFirst!.count),
    },
    duplicates: outcome.receiver.duplicates,
  };
}
