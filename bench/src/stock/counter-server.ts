import http from 'node:http';
import pg from 'pg';

/**
 * The peer a shipment is measured against: `node:http` + a pg pool of the portal's size whose
 * handler decrements one counter row in a transaction of its own. Every request locks the same
 * row and commits (with its WAL flush), as every shipment of one product locks its stock level:
 * the difference is what the portal does around that lock.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`counter-server: ${name} is required`);
  return value;
};
const port = Number(env('COUNTER_PORT'));
const table = env('COUNTER_TABLE');
const pool = new pg.Pool({
  connectionString: env('COUNTER_DATABASE_URL'),
  max: Number(env('COUNTER_POOL_SIZE')),
  application_name: 'bench-stock-counter',
});
pool.on('error', () => {});
const decrement = { name: 'decrement', text: `UPDATE ${table} SET n = n - 1 WHERE id = 1` };

async function decrementInTransaction(): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(decrement);
    await client.query('COMMIT');
    client.release();
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
}

const server = http.createServer((req, res) => {
  req.resume();
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  decrementInTransaction().then(
    () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    (error: Error) => res.writeHead(500).end(error.message),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
