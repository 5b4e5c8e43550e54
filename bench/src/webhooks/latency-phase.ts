import { clock } from './child';
import { awaitDeliveries, deliveryProblems } from './completion';
import { cpuPerItem, sampleCpu } from './cpu-sample';
import type { DeliveryContext } from './delivery-phases';
import { createSubscriptions, createTenant, insertEvent } from './fixtures';
import type { PhaseSample } from './phase';

let runs = 0;

/**
 * (4) Latency at low load: one event every `intervalMs` (its own transaction) to one
 * subscription. Latency = arrival at the receiver (stamped in its process) − the moment the
 * INSERT's COMMIT returned here; both are wall-clock ms of the same machine.
 */
export async function measureLatency(
  ctx: DeliveryContext,
  events: number,
  intervalMs: number,
): Promise<PhaseSample> {
  const tenantId = await createTenant(ctx.db, `wh-latency-${++runs}`);
  const subscriptionIds = await createSubscriptions(ctx, tenantId, 1);
  await ctx.receiver.call({ type: 'reset' });
  const pids = {
    worker: ctx.worker.pid,
    postmaster: ctx.postmasterPid,
    receiver: ctx.receiver.pid,
  };
  const from = sampleCpu(pids);
  const committedAt = new Map<string, number>();
  const start = clock();
  for (let i = 0; i < events; i++) {
    // A steady pace: each insert at its slot, not `intervalMs` after the previous one returned.
    const wait = start + i * intervalMs - clock();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const id = await insertEvent(ctx.db, tenantId, i + 1);
    committedAt.set(id, clock());
  }
  const outcome = await awaitDeliveries(ctx.db, ctx.receiver, {
    subscriptionIds,
    expected: events,
    arrivals: true,
  });
  const problems = deliveryProblems(outcome);
  if (problems.length) throw new Error(problems.join('; '));
  const to = sampleCpu(pids);

  const { rows } = await ctx.db.query<{ id: string; event_id: string; recorded_ms: number }>(
    `SELECT id, event_id, extract(epoch FROM delivered_at)::float8 * 1000 AS recorded_ms
     FROM webhook_deliveries WHERE subscription_id = $1`,
    [subscriptionIds[0]],
  );
  const byDelivery = new Map(rows.map((r) => [r.id, r]));
  const arrivalMs: number[] = [];
  const recordedMs: number[] = [];
  const { deliveryIds = [], arrivals = [] } = outcome.receiver;
  const seen = new Set<string>();
  deliveryIds.forEach((deliveryId, i) => {
    const row = byDelivery.get(deliveryId);
    if (!row || seen.has(deliveryId)) return; // a duplicate counts once, at its first arrival
    seen.add(deliveryId);
    const committed = committedAt.get(row.event_id)!;
    arrivalMs.push(arrivals[i]! - committed);
    recordedMs.push(row.recorded_ms - committed);
  });
  const seconds = (to.at - from.at) / 1000;
  return {
    items: events,
    seconds,
    perSec: events / seconds,
    cpu: cpuPerItem(from, to, events),
    notes: {},
    duplicates: outcome.receiver.duplicates,
    latency: { arrivalMs, recordedMs },
  };
}
