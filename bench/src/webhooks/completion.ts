import type pg from 'pg';
import type { Child } from './child';

const POLL_MS = 50;

/** What the receiver counted since its last reset. */
export interface ReceiverStats {
  count: number;
  unique: number;
  duplicates: number;
  unsigned: number;
  badSignatures: number;
  deliveryIds?: string[];
  arrivals?: number[];
}

/** The deliveries of a phase once all are recorded, and what the receiver saw of them. */
export interface DeliveryOutcome {
  expected: number;
  delivered: number;
  /** Wall-clock ms of the first and last `delivered_at` (the recording statement's time). */
  firstDeliveredAt: number;
  lastDeliveredAt: number;
  /** Wall-clock ms of the first attempt's start (as the worker stamped it). */
  firstAttemptAt: number;
  receiver: ReceiverStats;
}

export interface AwaitOptions {
  subscriptionIds: string[];
  expected: number;
  /** Called once, when the receiver first counts a request, with that count. */
  onFirstProgress?: (count: number) => void;
  /** Fail when the receiver's count does not move for this long. */
  stallMs?: number;
  arrivals?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the receiver has counted `expected` requests (polled every 50 ms over IPC, no
 * database load), then until the database has recorded every delivery of the subscriptions
 * and neither a webhook job nor a claim is left. Fails with the delivery states when progress stalls.
 * The caller checks the outcome with `deliveryProblems`.
 */
export async function awaitDeliveries(
  db: pg.Pool,
  receiver: Child,
  o: AwaitOptions,
): Promise<DeliveryOutcome> {
  const stallMs = o.stallMs ?? 30_000;
  let last = 0;
  let movedAt = Date.now();
  let progressed = false;
  for (;;) {
    const { count } = await receiver.call<{ count: number }>({ type: 'count' });
    if (count > 0 && !progressed) {
      progressed = true;
      o.onFirstProgress?.(count);
    }
    if (count >= o.expected) break;
    if (count !== last) {
      last = count;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      throw new Error(
        `stalled at ${count}/${o.expected} requests received: ${JSON.stringify(await states(db, o.subscriptionIds))}`,
      );
    }
    await sleep(POLL_MS);
  }
  const deadline = Date.now() + stallMs;
  let recorded = await states(db, o.subscriptionIds);
  while (recorded.delivered + recorded.failed < o.expected || recorded.queued > 0) {
    if (Date.now() > deadline)
      throw new Error(`deliveries not all recorded: ${JSON.stringify(recorded)}`);
    await sleep(POLL_MS);
    recorded = await states(db, o.subscriptionIds);
  }
  if (recorded.delivered !== o.expected || recorded.total !== o.expected || recorded.retried > 0)
    throw new Error(
      `expected ${o.expected} deliveries at the first attempt: ${JSON.stringify(recorded)}`,
    );
  const receiverStats = await receiver.call<ReceiverStats>({ type: 'stats', arrivals: o.arrivals });
  return {
    expected: o.expected,
    delivered: recorded.delivered,
    firstDeliveredAt: recorded.first_delivered_ms,
    lastDeliveredAt: recorded.last_delivered_ms,
    firstAttemptAt: recorded.first_attempt_ms,
    receiver: receiverStats,
  };
}

interface States {
  total: number;
  delivered: number;
  failed: number;
  /** Deliveries that took more than one attempt. */
  retried: number;
  /** Webhook jobs still in the queue (retries) and claims not released. */
  queued: number;
  first_delivered_ms: number;
  last_delivered_ms: number;
  first_attempt_ms: number;
  last_error: string | null;
}

async function states(db: pg.Pool, subscriptionIds: string[]): Promise<States> {
  const { rows } = await db.query<States>(
    `SELECT count(*)::int AS total,
       count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
       count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
       count(*) FILTER (WHERE d.attempts > 1)::int AS retried,
       (SELECT count(*)::int FROM graphile_worker.jobs WHERE task_identifier LIKE 'webhook_%')
         + (SELECT count(*)::int FROM webhook_claims WHERE process_id <> 'bench-db-cases') AS queued,
       extract(epoch FROM min(d.delivered_at))::float8 * 1000 AS first_delivered_ms,
       extract(epoch FROM max(d.delivered_at))::float8 * 1000 AS last_delivered_ms,
       extract(epoch FROM min(d.first_started_at))::float8 * 1000 AS first_attempt_ms,
       max(d.last_error) AS last_error
     FROM webhook_deliveries d WHERE d.subscription_id = ANY ($1::uuid[])`,
    [subscriptionIds],
  );
  return rows[0]!;
}

/** Everything that makes the phase's figures untrustworthy; duplicates are reported, not fatal. */
export function deliveryProblems(outcome: DeliveryOutcome): string[] {
  const r = outcome.receiver;
  const problems: string[] = [];
  if (r.unique !== outcome.expected)
    problems.push(`receiver saw ${r.unique} distinct deliveries, expected ${outcome.expected}`);
  if (r.badSignatures > 0) problems.push(`${r.badSignatures} requests with a wrong signature`);
  if (r.unsigned > 0) problems.push(`${r.unsigned} requests without a signature`);
  return problems;
}
