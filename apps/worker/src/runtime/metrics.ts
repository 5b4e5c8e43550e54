import {
  Counter,
  createMetricsRegistry,
  Gauge,
  Histogram,
  LATENCY_BUCKETS,
  observePools,
  type Registry,
} from '@erp/telemetry';
import type { WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

/** The worker's metrics (SPEC §15), served by GET /metrics on its health port. */
export interface WorkerMetrics {
  registry: Registry;
  /** Webhook attempts by outcome: delivered, retry, failed (attempts exhausted), gone (410). */
  webhookAttempts: Counter<'outcome'>;
  /** How long subscribers take to answer (or to time out). */
  webhookAttemptDuration: Histogram;
  /** ERP sync pushes by the status Settings → Portal access shows: ok, failed, skipped. */
  syncPushes: Counter<'status'>;
}

/**
 * Creates the worker's registry: webhook attempts, sync pushes, every job's outcome and time
 * (from graphile-worker's events), the queue and the webhook outbox as PostgreSQL holds them
 * (read at each scrape, so every worker reports the same shared backlog: aggregate with max, not
 * sum), and the pool.
 */
export function createWorkerMetrics(options: {
  pool: pg.Pool;
  events: WorkerEvents;
  /** The tasks this worker runs: each is reported, at zero when it has no job. */
  tasks: () => readonly string[];
  registry?: Registry;
}): WorkerMetrics {
  const registry = options.registry ?? createMetricsRegistry();
  observePools(registry, { main: options.pool });
  observeJobs(registry, options.events);
  observeQueue(registry, options.pool, options.tasks);
  observeOutbox(registry, options.pool);
  return {
    registry,
    webhookAttempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retry, failed: attempts exhausted, gone: 410).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookAttemptDuration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time a subscriber took to answer a webhook attempt (or to time out).',
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    syncPushes: new Counter({
      name: 'erp_sync_pushes_total',
      help: 'ERP sync pushes to landing, by status (ok, failed, skipped).',
      labelNames: ['status'],
      registers: [registry],
    }),
  };
}

/** Every job's outcome and run time, from graphile-worker's own events. */
function observeJobs(registry: Registry, events: WorkerEvents): void {
  const jobs = new Counter({
    name: 'worker_jobs_total',
    help: 'Jobs run by this worker, by task and outcome (success; retry: failed, will run again; failed: attempts exhausted).',
    labelNames: ['task', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'worker_job_duration_seconds',
    help: 'Run time of the jobs of this worker, by task.',
    labelNames: ['task'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const started = new Map<string, number>();
  const finished = (job: { id: string; task_identifier: string }, outcome: string) => {
    const at = started.get(job.id);
    started.delete(job.id);
    jobs.inc({ task: job.task_identifier, outcome });
    if (at !== undefined)
      duration.observe({ task: job.task_identifier }, (performance.now() - at) / 1000);
  };
  events.on('job:start', ({ job }) => started.set(job.id, performance.now()));
  events.on('job:success', ({ job }) => finished(job, 'success'));
  // `attempts` already counts the run that failed (graphile-worker counts when it takes a job).
  events.on('job:error', ({ job }) =>
    finished(job, job.attempts >= job.max_attempts ? 'failed' : 'retry'),
  );
}

/**
 * One query shared by the gauges a scrape collects together (prom-client collects them in the
 * same turn), read afresh at the next scrape.
 */
function oncePerScrape<T>(query: () => Promise<T>): () => Promise<T> {
  let snapshot: Promise<T> | undefined;
  return () => {
    snapshot ??= query().finally(() => {
      setImmediate(() => {
        snapshot = undefined;
      });
    });
    return snapshot;
  };
}

const QUEUE_STATES = ['ready', 'scheduled', 'running', 'failed'] as const;

/**
 * The job queue at scrape time, by task: ready (due, waiting for a worker: the depth that
 * matters), scheduled (retries and delayed jobs), running (locked), failed (attempts exhausted,
 * kept for operators), and how long the oldest ready job has waited. One grouped scan of the
 * queue table, which holds only unfinished jobs.
 */
function observeQueue(registry: Registry, pool: pg.Pool, tasks: () => readonly string[]): void {
  // Both gauges read one query per scrape.
  const read = oncePerScrape(() => readQueue(pool));
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs in the queue by task and state (ready: due and waiting; scheduled; running; failed: attempts exhausted).',
    labelNames: ['task', 'state'],
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const task of tasks()) for (const state of QUEUE_STATES) this.set({ task, state }, 0);
      for (const row of rows)
        for (const state of QUEUE_STATES) this.set({ task: row.task, state }, Number(row[state]));
    },
  });
  new Gauge({
    name: 'job_queue_oldest_ready_seconds',
    help: 'How long the oldest due job of a task has waited for a worker (0: none waits).',
    labelNames: ['task'],
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const task of tasks()) this.set({ task }, 0);
      for (const row of rows) this.set({ task: row.task }, Number(row.oldest_ready_seconds));
    },
  });
}

interface QueueRow {
  task: string;
  ready: string;
  scheduled: string;
  running: string;
  failed: string;
  oldest_ready_seconds: string;
}

async function readQueue(pool: pg.Pool): Promise<QueueRow[]> {
  const { rows } = await pool.query<QueueRow>(
    `SELECT t.identifier AS task,
       count(*) FILTER (WHERE j.is_available AND j.run_at <= now()) AS ready,
       count(*) FILTER (WHERE j.is_available AND j.run_at > now()) AS scheduled,
       count(*) FILTER (WHERE j.locked_at IS NOT NULL) AS running,
       count(*) FILTER (WHERE j.locked_at IS NULL AND j.attempts >= j.max_attempts) AS failed,
       coalesce(extract(epoch FROM now() - min(j.run_at) FILTER (WHERE j.is_available AND j.run_at <= now())), 0) AS oldest_ready_seconds
     FROM graphile_worker._private_jobs j
     JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     GROUP BY t.identifier`,
  );
  return rows;
}

/**
 * The webhook outbox at scrape time. First attempts are no jobs (the drain claims events in
 * batches), so the job queue does not show their backlog: these do. Events numbered and not yet
 * fanned out, summed over the watched tenants' cursors; how long the oldest of them has waited
 * (the next event of each cursor that is behind: the partial index of the cursors behind, then
 * one probe of the feed's index each); deliveries claimed by a worker and not yet recorded.
 */
function observeOutbox(registry: Registry, pool: pg.Pool): void {
  const read = oncePerScrape(() => readOutbox(pool));
  new Gauge({
    name: 'webhook_outbox_events',
    help: 'Events recorded for tenants with webhook subscriptions and not yet fanned out to deliveries.',
    registers: [registry],
    async collect() {
      this.set(Number((await read()).waiting));
    },
  });
  new Gauge({
    name: 'webhook_outbox_oldest_seconds',
    help: 'How long the oldest event not yet fanned out has waited (0: none waits).',
    registers: [registry],
    async collect() {
      this.set(Number((await read()).oldest_seconds));
    },
  });
  new Gauge({
    name: 'webhook_claimed_deliveries',
    help: 'First attempts claimed by a worker and not yet recorded (in flight, or held by a worker that died until another takes them over).',
    registers: [registry],
    async collect() {
      this.set(Number((await read()).claimed));
    },
  });
}

interface OutboxRow {
  waiting: string;
  oldest_seconds: string;
  claimed: string;
}

async function readOutbox(pool: pg.Pool): Promise<OutboxRow> {
  const { rows } = await pool.query<OutboxRow>(
    `SELECT
       (SELECT coalesce(sum(numbered_through - fanned_through), 0)
          FROM webhook_cursors WHERE fanned_through < numbered_through) AS waiting,
       (SELECT coalesce(extract(epoch FROM now() - min(e.recorded_at)), 0)
          FROM webhook_cursors c
          JOIN events e ON e.tenant_id = c.tenant_id AND e.sequence = c.fanned_through + 1
          WHERE c.fanned_through < c.numbered_through) AS oldest_seconds,
       (SELECT coalesce(sum(cardinality(delivery_ids)), 0) FROM webhook_claims) AS claimed`,
  );
  return rows[0]!;
}
