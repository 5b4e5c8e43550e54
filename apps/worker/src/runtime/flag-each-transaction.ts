import type pg from 'pg';

/**
 * `DATABASE_POOLER=transaction` (SPEC §19): every statement sent through `pool.query` runs in a
 * transaction of its own that first sets `app.worker` with `SET LOCAL` (sent with `BEGIN`, one
 * round trip), the one form Citus propagates to the shards' connections; nothing stays on the
 * connection afterwards. A connection taken with `pool.connect()` is the caller's (its own
 * transaction sets what it needs; graphile-worker's need no flag).
 */
export function flagEachTransaction(pool: pg.Pool): void {
  pool.query = (async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN; SET LOCAL app.worker = 'on'");
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    let broken: Error | undefined;
    try {
      const result = await client.query(config, values);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }) as typeof pool.query;
}
