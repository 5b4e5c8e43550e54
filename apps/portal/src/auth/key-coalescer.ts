import type pg from 'pg';

/** A live key's row, as `authenticate_api_key_units` returns it. */
export interface KeyRow {
  key_id: string;
  tenant_id: string;
  tenant_slug: string;
  tenant_modules: string[];
  holder_id: string;
  holder_roles: string[];
  scopes: string[];
  rate_limit: number;
  granted: number;
  remaining: number;
  reset_ms: string;
}

/** One request's share of a call: the key (null when unknown, revoked or expired) and its unit. */
export interface KeyCheck {
  row: KeyRow | null;
  allowed: boolean;
  remaining: number;
  resetMs: number;
}

interface Queue {
  prefix: string;
  hash: Buffer;
  inFlight: boolean;
  waiting: { resolve: (check: KeyCheck) => void; reject: (error: unknown) => void }[];
}

const MAX_UNITS = 200;
const byPool = new WeakMap<pg.Pool, (prefix: string, hash: Buffer) => Promise<KeyCheck>>();

/**
 * Checks a key and takes one unit of its rate limit, coalescing the concurrent requests of
 * one key in this process into one database call that takes several units: under load that
 * saves most calls and most of the lock contention on the key's bucket rows. A request that
 * arrives while a call is in flight waits for the next call, which starts after it arrived:
 * a key revoked before a request is never accepted for it.
 */
export function keyChecker(
  pool: pg.Pool,
  defaultLimit: number,
): (prefix: string, hash: Buffer) => Promise<KeyCheck> {
  const existing = byPool.get(pool);
  if (existing) return existing;
  const queues = new Map<string, Queue>();

  function flush(id: string, queue: Queue) {
    const batch = queue.waiting.splice(0, MAX_UNITS);
    queue.inFlight = true;
    pool
      .query<KeyRow>({
        name: 'authenticate_api_key_units',
        text: 'SELECT * FROM authenticate_api_key_units($1, $2, $3, $4)',
        values: [queue.prefix, queue.hash, defaultLimit, batch.length],
      })
      .then(
        ({ rows }) => {
          const row = rows[0] ?? null;
          batch.forEach((waiter, i) => {
            const allowed = row !== null && i < row.granted;
            // The i-th granted unit leaves the units granted after it.
            const remaining = row && allowed ? row.remaining + (row.granted - 1 - i) : 0;
            waiter.resolve({ row, allowed, remaining, resetMs: row ? Number(row.reset_ms) : 0 });
          });
        },
        (error: unknown) => {
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        queue.inFlight = false;
        if (queue.waiting.length) flush(id, queue);
        else queues.delete(id);
      });
  }

  const check = (prefix: string, hash: Buffer) =>
    new Promise<KeyCheck>((resolve, reject) => {
      const id = `${prefix}:${hash.toString('base64')}`;
      let queue = queues.get(id);
      if (!queue) {
        queue = { prefix, hash, inFlight: false, waiting: [] };
        queues.set(id, queue);
      }
      queue.waiting.push({ resolve, reject });
      if (!queue.inFlight) flush(id, queue);
    });
  byPool.set(pool, check);
  return check;
}
