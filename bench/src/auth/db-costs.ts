import { createHmac } from 'node:crypto';
import pg from 'pg';
import type { BenchKey } from '../lib/api-key-setup';
import { selfCpuMs, treeCpuMs } from '../lib/cpu';
import { latencySummary, SampleBuffer } from '../lib/stats';
import { dbCases } from './db-cases';

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

export interface DbCostSettings {
  databaseUrl: string;
  postmasterPid: number;
  hashSecret: string;
  seconds: number;
  concurrency: number;
}

/**
 * Times each call of the key path straight against PostgreSQL (no HTTP): alone, then with
 * `concurrency` callers, so the rate limiter's row locks show up when they serialise callers.
 */
export async function measureDbCosts(key: BenchKey, s: DbCostSettings): Promise<DbCost[]> {
  const pool = new pg.Pool({ connectionString: s.databaseUrl, max: s.concurrency });
  try {
    const { rows } = await pool.query<{ holder_id: string }>(
      'SELECT holder_id FROM api_keys WHERE id = $1',
      [key.keyId],
    );
    // The portal hashes with the secret's UTF-8 bytes (Buffer.from(env value)): so do we.
    const hash = createHmac('sha256', Buffer.from(s.hashSecret)).update(key.key).digest();
    const cases = dbCases({ ...key, hash, holderId: rows[0]!.holder_id });
    const results: DbCost[] = [];
    for (const c of cases) {
      for (const concurrency of [1, s.concurrency]) {
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

type Call = (pool: pg.Pool, worker: number) => Promise<unknown>;

async function timeCalls(
  pool: pg.Pool,
  run: Call,
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
