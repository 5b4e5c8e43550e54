import { randomUUID } from 'node:crypto';
import type { Logger } from '@erp/logger';
import type { WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

export interface LivenessOptions {
  pool: pg.Pool;
  events: WorkerEvents;
  logger: Logger;
  heartbeatMs: number;
  deadAfterMs: number;
}

export interface Liveness {
  /** This process's id in `worker_heartbeats` (webhook claims are held under it). */
  processId: string;
  /** Beats now (once the pool's ids are known), resolving when written. */
  beat(): Promise<void>;
  /** When this process last wrote its heartbeat (the liveness signal). */
  lastBeat(): Date | null;
  /** Stops beating and forgets this process's ids (graceful shutdown). */
  stop(): Promise<void>;
}

/**
 * Crash recovery across worker instances. graphile-worker locks jobs under the ids of a pool
 * and its workers and only frees a crashed process's jobs after 4 hours. Each process records
 * its lock ids with a heartbeat; every beat, ids unseen for `deadAfterMs` are taken for dead,
 * their jobs are unlocked (`force_unlock_workers`, in the same statement) and run again by whoever is alive. A job
 * that was mid-flight is run twice at worst: deliveries are at least once.
 */
export function startLiveness(options: LivenessOptions): Liveness {
  const processId = randomUUID();
  // The process itself beats too, before graphile-worker has created any locker id.
  const lockerIds = new Set<string>([processId]);
  options.events.on('pool:create', ({ workerPool }) => lockerIds.add(workerPool.id));
  options.events.on('worker:create', ({ worker }) => lockerIds.add(worker.workerId));
  let last: Date | null = null;
  let running: Promise<void> = Promise.resolve();

  async function beat() {
    await options.pool.query(
      `INSERT INTO worker_heartbeats (locker_id, process_id, last_seen)
       SELECT id, $2, now() FROM unnest($1::text[]) AS id
       ON CONFLICT (locker_id) DO UPDATE SET last_seen = now()`,
      [[...lockerIds], processId],
    );
    last = new Date();
    const { rows } = await options.pool.query<{ dead: string[] }>(
      `WITH gone AS (
         DELETE FROM worker_heartbeats WHERE last_seen < now() - $1 * interval '1 millisecond'
         RETURNING locker_id
       )
       SELECT array_agg(locker_id) AS dead, graphile_worker.force_unlock_workers(array_agg(locker_id))
       FROM gone HAVING count(*) > 0`,
      [options.deadAfterMs],
    );
    const dead = rows[0]?.dead;
    if (dead)
      options.logger.warn('unlocked the jobs of workers that stopped beating', { workers: dead });
  }
  const tick = () => {
    running = beat().catch((error: unknown) => {
      options.logger.error('heartbeat failed', { error: String(error) });
    });
  };
  tick();
  const timer = setInterval(tick, options.heartbeatMs);
  timer.unref();

  return {
    processId,
    beat: () => {
      tick();
      return running;
    },
    lastBeat: () => last,
    async stop() {
      clearInterval(timer);
      await running;
      await options.pool
        .query('DELETE FROM worker_heartbeats WHERE process_id = $1', [processId])
        .catch(() => {});
    },
  };
}
