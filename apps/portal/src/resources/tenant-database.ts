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
  /** The exports' own pool (`readOnly`), when it has one; else `pool`. */
  readonly exportPool: pg.Pool;
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
 * How a connection is bound to its tenant (DATABASE_POOLER, docs/connection-pooler.md):
 *
 * - `session` (direct connections, or a session-mode pooler): the connection takes the
 *   `erp_app` role when it opens and keeps the tenant of its last unit of work; a unit of work
 *   for another tenant first sets it. A single statement costs one round trip, as a bare
 *   connection's does, and a transaction two (BEGIN…, COMMIT).
 * - `transaction` (a transaction-mode pooler, PgBouncer): the next transaction may run on
 *   another client's server connection, so the role and the tenant are set inside every
 *   transaction (`SET LOCAL ROLE`, `SET LOCAL app.tenant_id`) and nothing is left behind. Every
 *   unit of work, a single statement too, is a transaction: two round trips more.
 */
export type TenantBinding = 'session' | 'transaction';

/**
 * The statement that sets the tenant. The id is inlined to spare a parse (a simple query
 * carries several statements in one round trip); it comes from our own tables, and is checked.
 */
function setTenant(tenantId: string, local: boolean): string {
  if (!isUuid(tenantId)) throw new Error('tenant id is not a UUID');
  // In a transaction, `SET LOCAL`: the one form Citus propagates to the shards' connections
  // (`citus.propagate_set_commands = 'local'`, docs/scale-out.md); a function call it would not.
  return local
    ? `SET LOCAL app.tenant_id = '${tenantId}'`
    : `SELECT set_config('app.tenant_id', '${tenantId}', false)`;
}

/**
 * A pool of its own for business statements. Every unit of work runs as `erp_app` bound to its
 * tenant (see `TenantBinding`), so row-level security hides every other tenant's rows even from
 * a statement that forgets its tenant filter. Named statements follow `preparedStatements`
 * (DATABASE_PREPARED_STATEMENTS).
 */
export function createTenantDatabase(options: {
  url: string;
  max?: number;
  preparedStatements?: boolean;
  /** `session` unless a transaction-mode pooler stands between the portal and PostgreSQL. */
  binding?: TenantBinding;
  /** Every statement's limit (SPEC §16); a statement past it fails with SQLSTATE 57014. */
  statementTimeoutMs?: number;
  /** How long taking a connection may wait (see `PoolOptions`). */
  connectionTimeoutMs?: number;
  /** Named statements kept prepared per connection (see `PoolOptions`). */
  maxPreparedStatements?: number;
  /**
   * Exports (`readOnly`) on a pool of their own, so that however long they last they never
   * hold the connections requests need; `statementTimeoutMs` is their statement's limit.
   * Unset: exports share the request pool and its limit.
   */
  exports?: { max: number; statementTimeoutMs?: number };
}): TenantDatabase {
  const perTransaction = options.binding === 'transaction';
  /**
   * A pool of the binding's shape. Session binding: the role, and the statement limit, are the
   * session's from the connection's start. Transaction binding: both are set in every
   * transaction (`opening`), a pooler's server connection keeping nothing.
   */
  const bindingPool = (
    applicationName: string,
    max: number | undefined,
    statementTimeoutMs: number | undefined,
  ) =>
    createPool({
      url: options.url,
      max,
      applicationName,
      preparedStatements: options.preparedStatements,
      connectionTimeoutMs: options.connectionTimeoutMs,
      maxPreparedStatements: options.maxPreparedStatements,
      ...(perTransaction
        ? {}
        : {
            statementTimeoutMs,
            onConnect: async (client: pg.ClientBase) => {
              await client.query('SET ROLE erp_app');
            },
          }),
    });
  const pool = bindingPool('portal-tenant', options.max, options.statementTimeoutMs);
  const exportPool = options.exports
    ? bindingPool('portal-export', options.exports.max, options.exports.statementTimeoutMs)
    : pool;
  const exportTimeoutMs = options.exports
    ? options.exports.statementTimeoutMs
    : options.statementTimeoutMs;
  /** The transaction-local limit of a per-transaction binding (nothing for a session's). */
  const localTimeout = (ms: number | undefined) =>
    perTransaction && ms !== undefined ? `; SET LOCAL statement_timeout = ${Math.trunc(ms)}` : '';
  /**
   * Session binding: the tenant a connection's session holds, known for sure. An entry is
   * written only once the setting is committed (by its own statement, or by the COMMIT of the
   * transaction that set it) and dropped whenever a rollback may have undone it, so a
   * connection either holds the tenant written here or is set again before its next work.
   */
  const sessionTenant = new WeakMap<pg.ClientBase, string>();

  /** Gives a connection back, or destroys it when the failure may have broken it. */
  function release(client: pg.PoolClient, error?: unknown) {
    const broken = error !== undefined && !(error as { code?: string }).code;
    client.release(broken ? (error as Error) : undefined);
  }

  /**
   * What opens a unit of work on a connection: the role and tenant and, for a transaction, its
   * BEGIN, in one simple query; null when a session-bound connection already holds the tenant.
   * app.worker is cleared with a per-transaction binding: were a worker's session flag ever
   * left on a pooled server connection, a tenant's transaction still would not read every
   * tenant's outbox.
   */
  function opening(
    client: pg.ClientBase,
    tenantId: string,
    set: string,
    begin: 'BEGIN' | 'BEGIN READ ONLY' | null,
    timeout: string,
  ): string | null {
    if (perTransaction) {
      return `${begin ?? 'BEGIN'}; SET LOCAL ROLE erp_app${timeout}; ${set}; SET LOCAL app.worker = ''`;
    }
    if (sessionTenant.get(client) === tenantId) return begin;
    // In a transaction the setting is committed with it and undone with it (`committed`,
    // `rollback`); alone it commits at once.
    return begin ? `${begin}; ${set}` : set;
  }

  const requestTimeout = localTimeout(options.statementTimeoutMs);
  const exportTimeout = localTimeout(exportTimeoutMs);

  async function open(
    tenantId: string,
    begin: 'BEGIN' | 'BEGIN READ ONLY' | null,
    from: pg.Pool = pool,
    timeout = requestTimeout,
  ): Promise<pg.PoolClient> {
    // Built (and the id checked) before a connection is taken: a bad id costs none.
    const set = setTenant(tenantId, perTransaction);
    const client = await from.connect();
    try {
      const text = opening(client, tenantId, set, begin, timeout);
      if (text !== null) await client.query(text);
    } catch (error) {
      sessionTenant.delete(client);
      release(client, error);
      throw error;
    }
    return client;
  }

  /** After COMMIT: the tenant set with the work is the session's now. */
  function committed(client: pg.ClientBase, tenantId: string) {
    if (!perTransaction) sessionTenant.set(client, tenantId);
  }

  async function rollback(client: pg.PoolClient) {
    sessionTenant.delete(client);
    await client.query('ROLLBACK').then(
      () => release(client),
      (rollbackError: Error) => release(client, rollbackError),
    );
  }

  async function inTransaction<T>(
    tenantId: string,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    const client = await open(tenantId, 'BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      committed(client, tenantId);
      release(client);
      return result;
    } catch (error) {
      await rollback(client);
      throw error;
    }
  }

  /** Session binding: single statements in autocommit, each atomic on its own. */
  async function statements<T>(
    tenantId: string,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    const client = await open(tenantId, null);
    committed(client, tenantId);
    try {
      const result = await work(client);
      release(client);
      return result;
    } catch (error) {
      // A statement's error leaves the session's settings as they were.
      release(client, error);
      throw error;
    }
  }

  return {
    // Behind a transaction-mode pooler single statements too run in a transaction: the binding
    // must be transaction-local. Measured in docs/connection-pooler.md.
    run: perTransaction ? inTransaction : statements,
    transaction: inTransaction,
    async readOnly(tenantId) {
      const client = await open(tenantId, 'BEGIN READ ONLY', exportPool, exportTimeout);
      let ended: Promise<void> | undefined;
      return {
        client,
        // A rollback that succeeds proves the connection sound, whatever ended the work.
        end: () => {
          ended ??= rollback(client);
          return ended;
        },
        abort: () => {
          sessionTenant.delete(client);
          ended ??= Promise.resolve(release(client, new Error('transaction aborted')));
          return ended;
        },
      };
    },
    pool,
    exportPool,
    close: async () => {
      await Promise.all([pool.end(), exportPool === pool ? undefined : exportPool.end()]);
    },
  };
}
