import pg from 'pg';
import { selfCpuMs, treeCpuMs } from './cpu';
import { latencySummary, SampleBuffer } from './stats';

/** A named database call, run by worker `worker` of a concurrent batch. */
export interface DbCase {
  name: string;
  run: (pool: pg.Pool, worker: number) => Promise<unknown>;
  /** The concurrencies it runs at (default: 1, then the settings' concurrency). */
  concurrencies?: number[];
}

/** One database call, at one concurrency. */
export interface DbCost {
  call: string;
  concurrency: number;
  calls: number;
  callsPerSec: number;
  p50Us: number;
  p99Us: number;
  /** CPU per call: PostgreSQL's processes, and this process's node-pg client. */
  postgresCpuUs: number;
  clientCpuUs: number;
}

export interface DbTimingSettings {
  databaseUrl: string;
  postmasterPid: number;
  /** Per case and concurrency, after a 0.5 s warm-up. */
  seconds: number;
  /** Each case runs with one caller, then with this many. */
  concurrency: number;
}

/**
 * Times each call straight against PostgreSQL (no HTTP), alone and then with
 * `concurrency` callers on a pool of that size, so row-lock waits show when they serialise
 * callers.
 */
export async function measureDbCases(cases: DbCase[], s: DbTimingSettings): Promise<DbCost[]> {
  const pool = new pg.Pool({ connectionString: s.databaseUrl, max: s.concurrency });
  try {
    const results: DbCost[] = [];
    for (const c of cases) {
      for (const concurrency of c.concurrencies ?? [1, s.concurrency]) {
        await timeCalls(pool, c.run, concurrency, 0.5, s.postmasterPid); // warm-up
        results.push({
          call: c.name,
          ...(await timeCalls(pool, c.run, concurrency, s.seconds, s.postmasterPid)),
        });
      }
    }
    return results;
  } finally {
    await pool.end();
  }
}

async function timeCalls(
  pool: pg.Pool,
  run: DbCase['run'],
  concurrency: number,
  seconds: number,
  postmasterPid: number,
) {
  const latencies = new SampleBuffer();
  const before = { pg: treeCpuMs(postmasterPid), self: selfCpuMs() };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await run(pool, worker);
        latencies.push((performance.now() - t0) * 1000);
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const after = { pg: treeCpuMs(postmasterPid), self: selfCpuMs() };
  const n = latencies.length;
  const { p50, p99 } = latencySummary(latencies.view());
  return {
    concurrency,
    calls: n,
    callsPerSec: n / elapsedS,
    p50Us: p50,
    p99Us: p99,
    postgresCpuUs: ((after.pg - before.pg) * 1000) / n,
    clientCpuUs: ((after.self - before.self) * 1000) / n,
  };
}
