import { EventEmitter } from 'node:events';
import path from 'node:path';
import { createPool } from '@erp/db';
import type { Logger } from '@erp/logger';
import type { Registry } from '@erp/telemetry';
import { createSecretBox } from '@erp/webhooks';
import { Logger as GraphileLogger, type Runner, run, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';
import type { WorkerEnv } from './env';
import { eventCronItems, eventHandlers } from './events';
import { idempotencyCronItems, idempotencyHandlers } from './idempotency';
import { createOutbound, enqueueStartupSync, landingCronItems, landingHandlers } from './landing';
import { createMailer, type Mailer, passwordLinkHandlers } from './mail';
import { flagEachTransaction } from './runtime/flag-each-transaction';
import { type HealthServer, startHealthServer } from './runtime/health-server';
import { buildTaskList } from './runtime/jobs';
import { type Liveness, startLiveness } from './runtime/liveness';
import { createWorkerMetrics, type WorkerMetrics } from './runtime/metrics';
import type { DeliveryDeps } from './webhooks/deliver';
import { createSender, type SenderOptions } from './webhooks/http-sender';
import { type OutboxDrain, startOutboxDrain } from './webhooks/outbox';
import { cachedSecretBox } from './webhooks/secret-cache';
import { createDeliveryStore } from './webhooks/store';
import { webhookHandlers } from './webhooks/tasks';

export interface WorkerDeps {
  env: WorkerEnv;
  logger: Logger;
  /** Where the metrics are counted (main.ts: with the process' own); default a fresh one. */
  registry?: Registry;
  now?: () => Date;
  random?: () => number;
  /** Overrides of the sender's address policy and DNS (tests). */
  sender?: Partial<SenderOptions>;
}

/**
 * The outbox drain's polls while deliveries keep coming, and how long it keeps polling after
 * the last one before it sleeps until a write's NOTIFY (or WORKER_POLL_INTERVAL_MS).
 */
const OUTBOX_BUSY_POLL_MS = 10;
const OUTBOX_GRACE_MS = 50;

/** The sender of development's mail files, when MAIL_FROM is not set. */
const DEVELOPMENT_MAIL_FROM = 'ERP <no-reply@localhost>';
/** Where development's links point, when CONSOLE_URL is not set (`pnpm dev`'s portal). */
const DEVELOPMENT_CONSOLE_URL = 'http://localhost:3000';

export interface RunningWorker {
  runner: Runner;
  liveness: Liveness;
  /** The webhook outbox's drain (first attempts). */
  outbox: OutboxDrain;
  /** The liveness signal's HTTP server (and GET /metrics), when WORKER_HEALTH_PORT is set. */
  health: HealthServer | undefined;
  metrics: WorkerMetrics;
  pool: pg.Pool;
  /** Graceful shutdown: running jobs finish (aborted after 5 s), then the pool closes. */
  stop(): Promise<void>;
}

/** Starts a worker: graphile-worker with the webhook and landing tasks, on a pool of its own. */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { env, logger } = deps;
  const concurrency = env.WORKER_CONCURRENCY;
  const perTransaction = env.DATABASE_POOLER === 'transaction';
  const pool = createPool({
    url: env.DATABASE_URL,
    // graphile-worker's sizing (it warns below it): a connection per running job, plus its own.
    // The pool opens connections only when needed, and our jobs share statements (store.ts),
    // so few are open in practice; the bound only matters for a burst of unshared queries.
    max: concurrency + 4,
    applicationName: 'worker',
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS,
    // `app.worker = on` admits these connections to every tenant's outbox (the events policy).
    // Set per session before the connection is handed out (PgBouncer refuses the `options`
    // startup parameter), or per transaction with DATABASE_POOLER=transaction.
    onConnect: perTransaction
      ? undefined
      : async (client) => {
          await client.query("SET app.worker = 'on'");
        },
  });
  if (perTransaction) flagEachTransaction(pool);
  const sender = createSender({
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_URLS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    ...deps.sender,
  });
  const outbound = createOutbound({ timeoutMs: env.OUTBOUND_TIMEOUT_MS });
  const now = deps.now ?? (() => new Date());
  const mailer = createWorkerMailer(env, logger);
  const events: WorkerEvents = new EventEmitter();
  const metrics = createWorkerMetrics({
    pool,
    events,
    tasks: () => Object.keys(taskList),
    registry: deps.registry,
  });
  const delivery: DeliveryDeps = {
    store: createDeliveryStore(pool),
    sender,
    secretBox: cachedSecretBox(createSecretBox(env.SECRETS_ENCRYPTION_KEY!)),
    logger,
    metrics,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_SECONDS * 1000,
    now,
    random: deps.random,
  };
  // One handler per defined job (`jobs` in @erp/contract), each parsing its payload.
  const taskList = buildTaskList({
    ...webhookHandlers(delivery),
    ...landingHandlers({ pool, outbound, env, logger, metrics, now }),
    ...eventHandlers({ pool, logger, now }),
    ...idempotencyHandlers({ pool, logger, now }),
    ...passwordLinkHandlers({
      pool,
      mailer,
      consoleUrl: env.CONSOLE_URL ?? DEVELOPMENT_CONSOLE_URL,
      logger,
      now,
    }),
  });
  const liveness = startLiveness({
    pool,
    events,
    logger,
    heartbeatMs: env.WORKER_HEARTBEAT_SECONDS * 1000,
    deadAfterMs: env.WORKER_DEAD_AFTER_SECONDS * 1000,
  });
  const runner = await run({
    pgPool: pool,
    taskList,
    // Declared here, not in a crontab file: the ERP sync push on ERP_SYNC_INTERVAL, the hourly
    // purges (landing's unclaimed passwords, expired events, Idempotency-Keys past 24 h).
    parsedCronItems: [
      ...landingCronItems(env.ERP_SYNC_INTERVAL),
      ...eventCronItems(),
      ...idempotencyCronItems(),
    ],
    concurrency,
    pollInterval: env.WORKER_POLL_INTERVAL_MS,
    noHandleSignals: true,
    events,
    logger: graphileLogger(logger),
    preset: {
      worker: {
        // Fetch and lock jobs in batches, complete them in batches: fewer round trips a job.
        localQueue: { size: concurrency },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
  });
  // Claims are held under the heartbeat's process id: it must be written before the first one.
  await liveness.beat();
  const outbox = startOutboxDrain({
    deps: delivery,
    processId: liveness.processId,
    concurrency: env.WEBHOOK_CONCURRENCY,
    busyPollMs: Math.min(OUTBOX_BUSY_POLL_MS, env.WORKER_POLL_INTERVAL_MS),
    graceMs: OUTBOX_GRACE_MS,
    idlePollMs: env.WORKER_POLL_INTERVAL_MS,
    listen: { connectionString: env.DATABASE_URL },
    logger,
  });
  await enqueueStartupSync(pool);
  const health =
    env.WORKER_HEALTH_PORT === undefined
      ? undefined
      : await startHealthServer({
          port: env.WORKER_HEALTH_PORT,
          host: env.WORKER_HEALTH_HOST,
          lastBeat: liveness.lastBeat,
          deadAfterMs: env.WORKER_DEAD_AFTER_SECONDS * 1000,
          registry: metrics.registry,
        });
  logger.info('worker started', { concurrency, health_port: health?.port, mail: mailer.mode });
  return {
    runner,
    liveness,
    outbox,
    health,
    metrics,
    pool,
    async stop() {
      await health?.close();
      // Attempts in flight end and are recorded before the heartbeat (and the claims' owner) goes.
      await Promise.all([runner.stop(), outbox.stop()]);
      await liveness.stop();
      await sender.close();
      await outbound.close();
      mailer.close();
      await pool.end();
    },
  };
}

/**
 * SMTP when `SMTP_URL` is set; outside production, files in MAIL_DIR (`.data/mail` from where
 * the worker runs; `pnpm dev` names the repository's); in production without SMTP, none: the
 * mail jobs fail (and are retried) and the start says so.
 */
function createWorkerMailer(env: WorkerEnv, logger: Logger): Mailer {
  const production = env.NODE_ENV === 'production';
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM ?? DEVELOPMENT_MAIL_FROM,
    fileDir: production ? undefined : path.resolve(env.MAIL_DIR ?? '.data/mail'),
    logger,
  });
  if (mailer.mode === 'none') {
    logger.warn('SMTP_URL is not set: password reset and invitation e-mails cannot be sent');
  }
  return mailer;
}

/** graphile-worker's messages through our JSON logger (its debug chatter only at debug). */
function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { scope: scope.label, task: scope.taskIdentifier, job_id: scope.jobId, ...meta };
    if (level === 'error') logger.error(message, fields);
    else if (level === 'warning') logger.warn(message, fields);
    else if (level === 'info') logger.info(message, fields);
    else logger.debug(message, fields);
  });
}
