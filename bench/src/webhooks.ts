import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import path from 'node:path';
import { createSecretBox } from '@erp/webhooks';
import pg from 'pg';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { startDatabase } from './lib/database';
import { measureDbCases } from './lib/db-timing';
import { f } from './lib/report';
import { type Child, startChild } from './webhooks/child';
import { deliveryDbCases } from './webhooks/db-cases';
import {
  type DeliveryContext,
  measureFanout,
  measureOneSubscriptionLive,
} from './webhooks/delivery-phases';
import { phaseList } from './webhooks/phases';
import { floorLines, renderReport, throughputTable } from './webhooks/report';
import { startWorker } from './webhooks/worker-process';

/**
 * `pnpm bench webhooks` (issue 4): the real webhook worker's deliveries per second against
 * graphile-worker's own no-op ceiling measured in the same run on the same database, the
 * latency of one delivery at low load, and the database calls of one delivery. See README.md.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  concurrency: envInt('BENCH_CONCURRENCY', 50),
  noopJobs: envInt('BENCH_NOOP_JOBS', 20_000),
  noopWarmupJobs: envInt('BENCH_NOOP_WARMUP', 10_000),
  fanoutEvents: envInt('BENCH_FANOUT_EVENTS', 100),
  fanout: envInt('BENCH_FANOUT', 100),
  events: envInt('BENCH_EVENTS', 5_000),
  inserters: envInt('BENCH_INSERTERS', 20),
  warmupEvents: envInt('BENCH_WARMUP_EVENTS', 10_000),
  latencyEvents: envInt('BENCH_LATENCY_EVENTS', 200),
  latencyIntervalMs: envInt('BENCH_LATENCY_INTERVAL_MS', 50),
  dbSeconds: envInt('BENCH_DB_SECONDS', 1),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
  workerProfile: process.env.BENCH_WORKER_CPU_PROF === '1',
  /** Only these phases (keys, comma-separated), no database calls, a short report: for iterating. */
  only: process.env.BENCH_PHASES?.split(',').filter(Boolean),
};

const stops: Array<() => Promise<unknown>> = [];
const stopAll = async () => {
  while (stops.length) await stops.pop()!().catch(() => {});
};

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}) and migrating…`);
  const database = await startDatabase('erp_bench_webhooks', settings.ephemeral);
  stops.push(() => database.stop());
  const db = new pg.Pool({ connectionString: database.url, max: settings.inserters + 2 });
  db.on('error', () => {});
  stops.push(() => db.end());

  log('starting the receiver and the worker…');
  const receiver: Child = await startChild({
    name: 'the receiver',
    script: path.join(import.meta.dirname, 'webhooks/receiver.ts'),
    cwd: path.join(import.meta.dirname, 'webhooks'),
    env: { NODE_ENV: 'production' },
  });
  stops.push(() => receiver.stop());
  const { port } = await receiver.call<{ port: number }>({ type: 'port' });
  const encryptionKey = randomBytes(32).toString('hex');
  const workerSettings = {
    databaseUrl: database.url,
    encryptionKey,
    concurrency: settings.concurrency,
    profileDir: settings.workerProfile
      ? path.resolve(import.meta.dirname, '../results/worker-cpu-profiles')
      : undefined,
  };
  const warmupFanoutEvents = Math.max(1, Math.round(settings.warmupEvents / settings.fanout));
  const ctx: DeliveryContext = {
    db,
    box: createSecretBox(encryptionKey),
    receiver,
    receiverBaseUrl: `http://127.0.0.1:${port}`,
    postmasterPid: database.postmasterPid,
    worker: await startWorker(workerSettings, db),
    warm: async () => {
      await measureFanout(ctx, warmupFanoutEvents, settings.fanout);
      await measureOneSubscriptionLive(ctx, settings.warmupEvents, settings.inserters);
    },
  };
  stops.push(() => ctx.worker.stop());

  log(`warming the worker up (${settings.warmupEvents} events, fan-out and single)…`);
  await ctx.warm();

  const noop = {
    receiverBaseUrl: ctx.receiverBaseUrl,
    databaseUrl: database.url,
    postmasterPid: database.postmasterPid,
    receiverPid: receiver.pid,
    concurrency: settings.concurrency,
    jobs: settings.noopJobs,
    warmupJobs: settings.noopWarmupJobs,
  };
  const phases = phaseList(db, ctx, noop, settings).filter(
    (p) => !settings.only || settings.only.includes(p.key),
  );
  for (let round = 0; round < settings.rounds; round++) {
    // Rotating order: no phase always follows the same neighbour.
    const order = phases.map((_, i) => phases[(i + round) % phases.length]!);
    for (const phase of order) {
      const sample = await phase.run();
      phase.rounds.push(sample);
      log(
        `  round ${round + 1}/${settings.rounds} ${phase.name}: ${f(sample.perSec)} ${phase.unit}/s (${f(sample.seconds, 2)} s)`,
      );
    }
  }

  if (settings.only) {
    process.stdout.write(
      `\n${throughputTable(phases, phases[0]!)}\n\n${floorLines(phases).join('\n')}\n`,
    );
    await writeResults('webhooks', { settings, phases: phases.map(({ run: _run, ...p }) => p) });
    return;
  }
  log('database calls of one delivery (worker stopped)…');
  await ctx.worker.stop();
  const dbCosts = await measureDbCases(await deliveryDbCases(ctx, 15_000 * settings.dbSeconds), {
    databaseUrl: database.url,
    postmasterPid: database.postmasterPid,
    seconds: settings.dbSeconds,
    concurrency: settings.concurrency,
  });

  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    postgres: `${database.postgresVersion} (${durability})`,
    worker: `apps/worker/src/main.ts via tsx, first attempts drained from the outbox (WEBHOOK_CONCURRENCY=${process.env.WEBHOOK_CONCURRENCY ?? 'default'}), graphile-worker for the rest (WORKER_CONCURRENCY=${settings.concurrency}, pool ${settings.concurrency + 4}, localQueue ${settings.concurrency}, completeJobBatchDelay 0), LOG_LEVEL=warn, one process`,
  };
  process.stdout.write(`${renderReport({ environment, settings, phases, dbCosts })}\n`);
  await writeResults('webhooks', {
    environment,
    settings,
    phases: phases.map(({ run: _run, ...p }) => p),
    db: dbCosts,
  });
}

runBench('webhooks', main, stopAll);
