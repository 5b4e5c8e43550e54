import { isUuid } from '@erp/contract';
import { createPool } from '@erp/db';
import type pg from 'pg';

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
 * Opens a transaction bound to a tenant and to `erp_app`, both transaction-local: `SET LOCAL
 * ROLE` and `set_config(…, true)` end with the transaction, so nothing of one request stays on
 * the server connection for the next. That is what lets a transaction-mode pooler (PgBouncer)
 * hand the connection to another client, or another tenant, between two transactions
 * (docs/connection-pooler.md). One round trip: BEGIN and both settings in one simple query.
 * The id is inlined to spare a parse; it comes from our own tables, and is checked.
 */
function bind(begin: 'BEGIN' | 'BEGIN READ ONLY', tenantId: string): string {
  if (!isUuid(tenantId)) throw new Error('tenant id is not a UUID');
  // app.worker is cleared too: were a worker's session flag ever left on a pooled server
  // connection, a tenant's transaction still would not read every tenant's outbox.
  return `${begin}; SET LOCAL ROLE erp_app; SELECT set_config('app.tenant_id', '${tenantId}', true), set_config('app.worker', '', true)`;
}

/**
 * A pool of its own for business statements. Every unit of work is a transaction bound to the
 * tenant and the `erp_app` role (see `bind`), so row-level security hides every other tenant's
 * rows even from a statement that forgets its tenant filter, and a connection outside a
 * transaction carries no tenant and no role: it sees nothing. Named statements follow
 * `preparedStatements` (DATABASE_PREPARED_STATEMENTS).
 */
export function createTenantDatabase(options: {
  url: string;
  max?: number;
  preparedStatements?: boolean;
}): TenantDatabase {
  const pool = createPool({ ...options, applicationName: 'portal-tenant' });

  /** Gives a connection back, or destroys it when the failure may have broken it. */
  function release(client: pg.PoolClient, error?: unknown) {
    const broken = error !== undefined && !(error as { code?: string }).code;
    client.release(broken ? (error as Error) : undefined);
  }

  async function inTransaction<T>(
    tenantId: string,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    const begin = bind('BEGIN', tenantId);
    const client = await pool.connect();
    try {
      await client.query(begin);
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
  }

  return {
    // Single statements too run in a transaction: the binding must be transaction-local, and
    // a list with its count then reads one snapshot. Two round trips more than a session-bound
    // connection (BEGIN…, COMMIT), measured in docs/connection-pooler.md.
    run: inTransaction,
    transaction: inTransaction,
    async readOnly(tenantId) {
      const begin = bind('BEGIN READ ONLY', tenantId);
      const client = await pool.connect();
      try {
        await client.query(begin);
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
