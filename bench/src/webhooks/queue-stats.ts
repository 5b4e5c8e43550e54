import type pg from 'pg';

/** The queue's table: graphile_worker.jobs is a view on it. */
const ANALYZE_QUEUE = 'ANALYZE graphile_worker._private_jobs';

/**
 * Runs `enqueue` in a transaction that also ANALYZEs the queue before its COMMIT. ANALYZE
 * counts the transaction's own new rows, so the jobs and statistics that know of them become
 * visible together and the job fetch is planned for a backlog from its first call. Without
 * it, a queue never analyzed with jobs in it (a fresh database, as here) is estimated at one
 * row and graphile-worker's fetch reads and sorts the whole backlog on every call (several
 * times slower, until auto-analyze runs, up to a minute later): figures would depend on
 * whether auto-analyze had run yet.
 */
export async function enqueueAnalyzed(
  db: pg.Pool,
  enqueue: (client: pg.PoolClient) => Promise<unknown>,
): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await enqueue(client);
    await client.query(ANALYZE_QUEUE);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
