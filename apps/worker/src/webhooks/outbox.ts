import type { Logger } from '@erp/logger';
import pg from 'pg';
import { attemptAll, type DeliveryDeps } from './deliver';
import type { Claimed } from './store';

/** The channel the `events_webhook_wake` trigger notifies while the worker sleeps. */
export const OUTBOX_CHANNEL = 'webhook_outbox';

export interface OutboxDrainOptions {
  deps: DeliveryDeps;
  /** This process's heartbeat id: claims are held under it. */
  processId: string;
  /** First attempts in flight at most. */
  concurrency: number;
  /** Polls while deliveries keep coming; after `graceMs` without any, the drain sleeps. */
  busyPollMs: number;
  graceMs: number;
  /** Asleep, it polls anyway this often (a NOTIFY missed, a process that died). */
  idlePollMs: number;
  /** Where to LISTEN; none: polling alone. */
  listen?: pg.ClientConfig;
  logger: Logger;
}

export interface OutboxDrain {
  /** Ends the sleep or the poll's pause now. */
  wake(): void;
  /** Stops claiming and waits for the claims in flight to be attempted and recorded. */
  stop(): Promise<void>;
  /** Claims this process made (or took over) so far, and their deliveries. */
  stats(): { claims: number; deliveries: number };
}

/** Tenants and events per claim: a claim stays one short statement whatever the backlog. */
const CLAIM_TENANTS = 4;
const CLAIM_EVENTS_PER_TENANT = 500;
/** A claim of fewer deliveries than this is a trickle: the next poll waits a little. */
const FEW = 8;
/** Orphaned claims taken over per statement. */
const TAKE_OVER_CLAIMS = 4;
/** After a failed statement, the pause before the next try. */
const RETRY_PAUSE_MS = 1000;
/**
 * While claims keep finding work, the poll before a claim (numbering, orphaned claims) runs at
 * most this often: the claim itself says when the numbered events run out. The poll's numbering
 * reads `events_unsequenced`, whose entries stay until VACUUM, so its cost grows with the events
 * numbered since then: once per claim it was most of a delivery's PostgreSQL time (issue 30).
 */
const READY_EVERY_MS = 200;

/**
 * The webhook outbox's drain: first attempts without a job per event. It claims batches of
 * deliveries (`CLAIM_EVENTS`: the next events of the tenants behind, fanned out, claimed under
 * this process's heartbeat), attempts them concurrently, and records each batch in one
 * statement that releases its claim; batches overlap up to `concurrency` attempts in flight.
 * Claims of dead processes are taken over (`TAKE_OVER_CLAIMS`). With nothing to do for
 * `graceMs` it arms the wake-up (a write's NOTIFY) and sleeps; woken, it disarms it, so a
 * busy outbox costs writers no NOTIFY.
 */
export function startOutboxDrain(options: OutboxDrainOptions): OutboxDrain {
  const { deps, logger } = options;
  const store = deps.store;
  // Half the concurrency per claim: the next claim is ready while the last one's attempts end.
  const batch = Math.max(1, Math.ceil(options.concurrency / 2));
  let inFlight = 0;
  let stopping = false;
  const running = new Set<Promise<void>>();
  let pause:
    | { timer: NodeJS.Timeout; resolve: (woken: boolean) => void; forRoom: boolean }
    | undefined;

  const wake = () => {
    if (!pause) return;
    clearTimeout(pause.timer);
    pause.resolve(true);
    pause = undefined;
  };
  /**
   * Resolves true when woken (a NOTIFY, stop; an attempt ending too when `forRoom`: waiting
   * for room in flight), false when the time is up.
   */
  const sleep = (ms: number, forRoom = false) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        pause = undefined;
        resolve(false);
      }, ms);
      pause = { timer, resolve, forRoom };
    });

  const listener = options.listen ? listen(options.listen, wake, logger) : undefined;

  async function recordClaim(claimed: Claimed, records: Awaited<ReturnType<typeof attemptAll>>) {
    // The attempts were made: their record is retried, never the attempts. Stopped before it
    // succeeds, the claim stays, and the heartbeat's end hands it to a live worker.
    for (;;) {
      try {
        await store.record(records, [claimed.claimId]);
        return;
      } catch (error) {
        logger.error('recording webhook attempts failed; retrying', { error: String(error) });
        if (stopping) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      }
    }
  }

  const counts = { claims: 0, deliveries: 0 };
  function dispatch(claimed: Claimed) {
    counts.claims++;
    counts.deliveries += claimed.targets.length;
    inFlight += claimed.targets.length;
    const done = attemptAll(deps, claimed.targets, {
      claimed: true,
      onAttempted: () => {
        inFlight--;
        if (pause?.forRoom) wake();
      },
    })
      .then((records) => recordClaim(claimed, records))
      .finally(() => running.delete(done));
    running.add(done);
  }

  /**
   * One poll: 'none' when there was nothing to take, 'few' for a claim of a few deliveries
   * (the outbox is being written to as fast as it is drained), else 'more'.
   */
  let busy = false;
  let polledAt = Number.NEGATIVE_INFINITY;
  async function drainOnce(): Promise<'none' | 'few' | 'more'> {
    // After a claim that found plenty, the next one is claimed without polling first (unless
    // the last poll is READY_EVERY_MS old); one that then finds nothing polls at once.
    const skipPoll = busy && Date.now() - polledAt < READY_EVERY_MS;
    busy = false;
    if (!skipPoll) {
      polledAt = Date.now();
      const ready = await store.ready();
      if (ready.orphaned) {
        const taken = await store.takeOver(options.processId, TAKE_OVER_CLAIMS);
        if (taken) {
          logger.warn('took over the webhook deliveries of a worker that stopped beating', {
            deliveries: taken.targets.length,
          });
          dispatch(taken);
          return 'more';
        }
      }
      if (!ready.behind) return 'none';
    }
    const { moved, claimed } = await store.claim(options.processId, {
      deliveries: Math.min(batch, options.concurrency - inFlight),
      events: CLAIM_EVENTS_PER_TENANT,
      tenants: CLAIM_TENANTS,
    });
    if (claimed) dispatch(claimed);
    if (moved === 0) return skipPoll ? drainOnce() : 'none';
    if (claimed && claimed.targets.length < FEW) return 'few';
    busy = true;
    return 'more';
  }

  async function loop() {
    let idleSince: number | undefined;
    let armed = false;
    // The wake-up's lease outlives a few polls of the sleeping worker, which renews it at each.
    const leaseMs = Math.max(1000, options.idlePollMs * 3);
    while (!stopping) {
      try {
        // Room for a batch first (or for whatever is left when a batch is most of the limit).
        if (inFlight > 0 && options.concurrency - inFlight < batch) {
          await sleep(options.idlePollMs, true);
          continue;
        }
        const found = await drainOnce();
        if (found !== 'none') {
          idleSince = undefined;
          if (armed) {
            armed = false;
            await store.setWake(null);
          }
          // A trickle: the next poll a little later takes several events at once, so the
          // statements' fixed cost is shared (a few ms of latency for fewer, larger batches).
          if (found === 'few') await sleep(options.busyPollMs);
          continue;
        }
        idleSince ??= Date.now();
        // Sleeping on a NOTIFY needs the LISTEN in place: until the listener is connected (at
        // start, after losing it) the drain polls; the listener's (re)connection wakes it.
        if (!listener?.listening()) {
          const busy = Date.now() - idleSince < options.graceMs;
          await sleep(busy ? options.busyPollMs : options.idlePollMs);
        } else if (Date.now() - idleSince < options.graceMs) {
          await sleep(options.busyPollMs);
        } else if (!armed) {
          // Armed, then looked at once more (the loop polls again): a write that read the lease
          // before it was set and committed meanwhile is found now, not at the next poll.
          armed = true;
          await store.setWake(leaseMs);
        } else if (await sleep(options.idlePollMs)) {
          // Woken: busy again (disarmed, so writers under load pay no NOTIFY) for a grace period.
          armed = false;
          idleSince = Date.now();
          await store.setWake(null);
        } else {
          await store.setWake(leaseMs);
        }
      } catch (error) {
        logger.error('webhook outbox poll failed', { error: String(error) });
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  const looping = loop();
  return {
    wake,
    async stop() {
      stopping = true;
      wake();
      await looping;
      await Promise.all(running);
      await listener?.close();
    },
    stats: () => ({ ...counts }),
  };
}

/** A connection of its own that LISTENs, reconnecting after a failure (a missed NOTIFY only delays: the drain polls). */
function listen(config: pg.ClientConfig, onNotify: () => void, logger: Logger) {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ ...config, application_name: 'worker-listen' });
    next.on('notification', onNotify);
    next.on('error', (error) => {
      logger.warn('webhook outbox listener lost; polling meanwhile', { error: String(error) });
      next.end().catch(() => {});
      if (client === next) client = undefined;
      if (!closed) retry = setTimeout(() => void connect(), RETRY_PAUSE_MS);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (closed) await next.end();
      else {
        client = next;
        // A poll now: what was written while nobody listened, and the drain may sleep now.
        onNotify();
      }
    } catch (error) {
      next.end().catch(() => {});
      logger.warn('webhook outbox listener could not connect; polling meanwhile', {
        error: String(error),
      });
      if (!closed) retry = setTimeout(() => void connect(), RETRY_PAUSE_MS);
    }
  };
  void connect();
  return {
    /** Whether a NOTIFY would reach this worker now. */
    listening: () => client !== undefined,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
