import type pg from 'pg';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Runs `work` in a transaction bound to one tenant, as the `erp_app` role: row-level
 * security then hides every other tenant's rows even from a query that forgets its tenant
 * filter. Opening costs one round trip (both settings travel with BEGIN).
 */
export async function withTenant<T>(
  pool: pg.Pool,
  tenantId: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  // The id is inlined to share BEGIN's round trip; it comes from our own tables, and is checked.
  if (!UUID.test(tenantId)) throw new Error('withTenant: tenant id is not a UUID');
  const client = await pool.connect();
  try {
    await client.query(
      `BEGIN; SELECT set_config('app.tenant_id', '${tenantId}', true), set_config('role', 'erp_app', true)`,
    );
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // A connection whose ROLLBACK fails is destroyed rather than reused.
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackError: Error) => client.release(rollbackError),
    );
    throw error;
  }
}
