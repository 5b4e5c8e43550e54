import pg from 'pg';

export interface PoolOptions {
  url: string;
  max?: number;
  applicationName?: string;
  /**
   * Whether statements given a `name` are prepared once per connection and reused (the
   * default, ~1.35× database throughput on repeated shapes). Off behind a pooler that cannot
   * carry them (PgBouncer before 1.21 in transaction mode: the next transaction may run on a
   * server connection that never saw the statement): names are dropped and every statement is
   * parsed anew, unnamed, in the same round trip.
   */
  preparedStatements?: boolean;
  /**
   * Run on each new connection before the pool hands it out (session settings a pooler's
   * startup parameters cannot carry); a failure fails that checkout and drops the connection.
   */
  onConnect?: (client: pg.ClientBase) => Promise<void>;
  /**
   * How long taking a connection may wait (for a free one, or for a new one to open) before it
   * fails with node-pg's `timeout exceeded when trying to connect` (the API's `surcharge`).
   * Unset: forever.
   */
  connectionTimeoutMs?: number;
  /**
   * `SET statement_timeout` on each new connection, before `onConnect`. Leave unset behind a
   * transaction-mode pooler: the setting would stay on a server connection other clients get
   * (bind it per transaction instead, `SET LOCAL`).
   */
  statementTimeoutMs?: number;
  /**
   * At most this many named statements stay prepared on a connection: past it, the least
   * recently used is deallocated (ad-hoc query shapes would otherwise pile up for the
   * connection's life). Unset: unbounded. Ignored when `preparedStatements` is false.
   */
  maxPreparedStatements?: number;
}

/**
 * node-pg's client, its promise form (`await client.query(…)`, what our code and Kysely call)
 * run through its callback form. The results are the same; what differs is the garbage: under
 * a server's load, results read through node-pg's own promise outlived a young-generation
 * collection far more often than through a callback (scavenges of 5–7 ms instead of 0.6–0.8,
 * and ~50–100 µs more of CPU a 50-row list request; `bench/src/list.ts`'s targets 3, 4 and 6,
 * docs/decisions.md, "The portal's per-request floor"). A rejected query's stack is re-captured
 * where it is awaited, as node-pg does.
 */
class CallbackQueryClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client's query is a family of overloads.
  override query(config: any, values?: any, callback?: any): any {
    const promised =
      callback === undefined &&
      typeof values !== 'function' &&
      config !== null &&
      config !== undefined &&
      typeof config.submit !== 'function' &&
      typeof config.callback !== 'function';
    if (!promised) return super.query(config, values, callback);
    return new Promise((resolve, reject) => {
      super.query(config, values, (error: Error | null, result: unknown) =>
        error ? reject(error) : resolve(result),
      );
    }).catch((error: Error) => {
      Error.captureStackTrace(error);
      throw error;
    });
  }
}

/**
 * A client that sends every statement unnamed. It sits under everything that queries through
 * the pool (our named statements, graphile-worker's own), so one setting covers the process.
 */
class UnnamedStatementsClient extends CallbackQueryClient {
  // biome-ignore lint/suspicious/noExplicitAny: pg.Client's query is a family of overloads.
  override query(config: any, values?: any, callback?: any): any {
    if (config !== null && typeof config === 'object' && config.name) {
      if (typeof config.submit === 'function') {
        // A Query made by the caller, used once: unnamed in place.
        config.name = undefined;
      } else {
        // A plain config, often a module's constant: a copy without the name.
        const { name: _name, ...unnamed } = config;
        return super.query(unnamed, values, callback);
      }
    }
    return super.query(config, values, callback);
  }
}

/** What node-pg's connection keeps of the named statements it sent (internal, stable in 8.x). */
interface StatementBook {
  parsedStatements: Record<string, string | undefined>;
}

/**
 * A client that keeps at most `limit` named statements prepared: a least-recently-used list of
 * the names it ran; a name that pushes the list over evicts the oldest with a `DEALLOCATE`,
 * queued before the statement that needed the room (so it costs no wait of its own beyond its
 * round trip). The driver forgets the name in the DEALLOCATE's callback, which node-pg calls
 * before it sends the next queued statement, so a later use parses it anew, never a name the
 * server no longer has. A name the server never got (its parse failed, or is still on its way)
 * is only forgotten here.
 */
function boundedStatementsClient(limit: number): typeof pg.Client {
  return class BoundedStatementsClient extends CallbackQueryClient {
    private readonly recent = new Map<string, true>();

    // biome-ignore lint/suspicious/noExplicitAny: pg.Client's query is a family of overloads.
    override query(config: any, values?: any, callback?: any): any {
      const name = config !== null && typeof config === 'object' ? config.name : undefined;
      if (typeof name === 'string' && name) this.remember(name);
      return super.query(config, values, callback);
    }

    private remember(name: string) {
      if (this.recent.delete(name)) {
        this.recent.set(name, true);
        return;
      }
      this.recent.set(name, true);
      if (this.recent.size <= limit) return;
      const oldest = this.recent.keys().next().value as string;
      this.recent.delete(oldest);
      const book = (this as unknown as { connection: StatementBook }).connection;
      if (book.parsedStatements[oldest] === undefined) return;
      super.query(`DEALLOCATE ${pg.escapeIdentifier(oldest)}`, (error: Error | null) => {
        // Refused (an aborted transaction): the statement is still there, and still known.
        if (!error) delete book.parsedStatements[oldest];
      });
    }
  };
}

/** A node-pg pool of the product's shape: errors of idle clients swallowed, statements named or not. */
export function createPool(options: PoolOptions): pg.Pool {
  const { statementTimeoutMs, onConnect } = options;
  const connect =
    statementTimeoutMs === undefined
      ? onConnect
      : async (client: pg.ClientBase) => {
          await client.query(`SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`);
          await onConnect?.(client);
        };
  const Client =
    options.preparedStatements === false
      ? UnnamedStatementsClient
      : options.maxPreparedStatements !== undefined
        ? boundedStatementsClient(options.maxPreparedStatements)
        : CallbackQueryClient;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    ...(options.connectionTimeoutMs
      ? { connectionTimeoutMillis: options.connectionTimeoutMs }
      : {}),
    Client,
    ...(connect ? { onConnect: connect } : {}),
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
