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
}

/**
 * A client that sends every statement unnamed. It sits under everything that queries through
 * the pool (our named statements, graphile-worker's own), so one setting covers the process.
 */
class UnnamedStatementsClient extends pg.Client {
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

/** A node-pg pool of the product's shape: errors of idle clients swallowed, statements named or not. */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    ...(options.preparedStatements === false ? { Client: UnnamedStatementsClient } : {}),
    ...(options.onConnect ? { onConnect: options.onConnect } : {}),
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
