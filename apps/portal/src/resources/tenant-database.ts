import { isUuid } from '@erp/contract';
import pg from 'pg';

/** Where business statements run: always as `erp_app`, always bound to one tenant. */
export interface TenantDatabase {
  /** Runs single statements (each atomic on its own) for a tenant. */
  run<T>(tenantId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Runs several statements in one transaction for a tenant. */
  transaction<T>(tenantId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /**
   * Opens a read-only transaction for a tenant and keeps its connection until `end` (a streamed
   * export: one snapshot, read in chunks while the response is written).
   */
  readOnly(tenantId: string): Promise<HeldTransaction>;
  /** The pool itself, read by the pool gauges (`/metrics`). */
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** A transaction held open by its caller; `end` rolls it back and gives the connection back. */
export interface HeldTransaction {
  client: pg.PoolClient;
  /** Idempotent. A connection whose rollback fails is dropped rather than reused. */
  end(): Promise<void>;
  /** Drops the connection (the pool opens another): for work that cannot be stopped otherwise, a COPY midway. */
  abort(): Promise<void>;
}

/**
 * A pool of its own whose connections switch to the `erp_app` role once, when they open, and
 * keep the tenant at session level, re-set only when a request is for another tenant: a read
 * then costs one round trip (syscalls are the dearest part of a query here), and row-level
 * security still hides every other tenant's rows even from a statement that forgets its
 * tenant filter. A connection whose tenant is unknown has none set, so it sees nothing.
 */
export function createTenantDatabase(options: { url: string; max?: number }): TenantDatabase {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: 'portal-tenant',
  });
  pool.on('error', () => {}); // an idle connection lost: the pool replaces it
  pool.on('connect', (client) => {
    // Queued before any work on this connection, so nothing runs with the login role.
    client.query('SET ROLE erp_app').catch(() => {});
  });
  const tenantOf = new WeakMap<pg.PoolClient, string>();

  async function checkout(tenantId: string): Promise<pg.PoolClient> {
    // The id is inlined to spare a parse; it comes from our own tables, and is checked.
    if (!isUuid(tenantId)) throw new Error('tenant id is not a UUID');
    return pool.connect();
  }

  /** Gives a connection back, or destroys it when the failure may have broken it. */
  function release(client: pg.PoolClient, error?: unknown) {
    const broken = error !== undefined && !(error as { code?: string }).code;
    if (broken) tenantOf.delete(client);
    client.release(broken ? (error as Error) : undefined);
  }

  return {
    async run(tenantId, work) {
      const client = await checkout(tenantId);
      try {
        if (tenantOf.get(client) !== tenantId) {
          tenantOf.delete(client);
          await client.query(`SELECT set_config('app.tenant_id', '${tenantId}', false)`);
          tenantOf.set(client, tenantId);
        }
        const result = await work(client);
        release(client);
        return result;
      } catch (error) {
        release(client, error);
        throw error;
      }
    },
    async transaction(tenantId, work) {
      const client = await checkout(tenantId);
      try {
        // A transaction-local tenant: a rollback cannot leave the session's one stale.
        await client.query(`BEGIN; SELECT set_config('app.tenant_id', '${tenantId}', true)`);
        const result = await work(client);
        await client.query('COMMIT');
        release(client);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').then(
          () => release(client),
          (rollbackError: Error) => release(client, rollbackError),
        );
        throw error;
      }
    },
    async readOnly(tenantId) {
      const client = await checkout(tenantId);
      try {
        await client.query(
          `BEGIN READ ONLY; SELECT set_config('app.tenant_id', '${tenantId}', true)`,
        );
      } catch (error) {
        release(client, error);
        throw error;
      }
      let ended: Promise<void> | undefined;
      return {
        client,
        // A rollback that succeeds proves the connection sound, whatever ended the work.
        end: () => {
          ended ??= client.query('ROLLBACK').then(
            () => release(client),
            (rollbackError: Error) => release(client, rollbackError),
          );
          return ended;
        },
        abort: () => {
          ended ??= Promise.resolve(release(client, new Error('transaction aborted')));
          return ended;
        },
      };
    },
    pool,
    close: () => pool.end(),
  };
}
