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

/** A live session's row, as `authenticate_session_units` returns it. */
export interface SessionRow {
  alive: boolean;
  /** Null: no tenant named, or not a member of the one named. */
  tenant_id: string | null;
  tenant_slug: string | null;
  tenant_modules: string[] | null;
  roles: string[] | null;
  sso_enforced: boolean | null;
  sso_issuer: string | null;
  sso_legacy_authorize_url: string | null;
  rate_limit: number;
  granted: number;
  remaining: number;
  reset_ms: string;
}

/** One request's share of a session call. */
export interface SessionCheck {
  /** Null when the session has ended (logout, a new password, a reused refresh token). */
  row: SessionRow | null;
  allowed: boolean;
  remaining: number;
  resetMs: number;
}

/** One request's share of a coalesced call. */
interface Share<R> {
  row: R | null;
  allowed: boolean;
  remaining: number;
  resetMs: number;
}

interface Queue<A, R> {
  args: A;
  inFlight: boolean;
  waiting: { resolve: (share: Share<R>) => void; reject: (error: unknown) => void }[];
}

/** A database row with a rate limit's units: how many of the call's were granted and what remains. */
interface UnitsRow {
  granted: number;
  remaining: number;
  reset_ms: string;
}

const MAX_UNITS = 200;

/**
 * Coalesces the concurrent calls of one id in this process into one database call that takes
 * several units: under load that saves most calls and most of the lock contention on the
 * bucket rows. A request that arrives while a call is in flight waits for the next call, which
 * starts after it arrived: a credential revoked before a request is never accepted for it.
 * `run(args, units)` makes the call (`args`: the id's, the same for every request of the id);
 * its row (null: the credential is dead) is shared by the batch, the i-th request getting the
 * i-th unit.
 */
function coalescer<A, R extends UnitsRow>(
  run: (args: A, units: number) => Promise<R | null>,
): (id: string, args: A) => Promise<Share<R>> {
  const queues = new Map<string, Queue<A, R>>();

  function flush(id: string, queue: Queue<A, R>) {
    const batch = queue.waiting.splice(0, MAX_UNITS);
    queue.inFlight = true;
    run(queue.args, batch.length)
      .then(
        (row) => {
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

  return (id, args) =>
    new Promise<Share<R>>((resolve, reject) => {
      let queue = queues.get(id);
      if (!queue) {
        queue = { args, inFlight: false, waiting: [] };
        queues.set(id, queue);
      }
      queue.waiting.push({ resolve, reject });
      if (!queue.inFlight) flush(id, queue);
    });
}

const keyCheckers = new WeakMap<pg.Pool, (prefix: string, hash: Buffer) => Promise<KeyCheck>>();

/** Checks a key and takes one unit of its rate limit (coalesced per key and secret). */
export function keyChecker(
  pool: pg.Pool,
  defaultLimit: number,
): (prefix: string, hash: Buffer) => Promise<KeyCheck> {
  const existing = keyCheckers.get(pool);
  if (existing) return existing;
  const take = coalescer<{ prefix: string; hash: Buffer }, KeyRow>(async (key, units) => {
    const { rows } = await pool.query<KeyRow>({
      name: 'authenticate_api_key_units',
      text: 'SELECT * FROM authenticate_api_key_units($1, $2, $3, $4)',
      values: [key.prefix, key.hash, defaultLimit, units],
    });
    return rows[0] ?? null;
  });
  const check = (prefix: string, hash: Buffer) =>
    take(`${prefix}:${hash.toString('base64')}`, { prefix, hash });
  keyCheckers.set(pool, check);
  return check;
}

/** What a session request names: its user, its session (refresh-token family), its tenant. */
export interface SessionQuery {
  userId: string;
  sessionId: string;
  tenant: { value: string; isUuid: boolean } | null;
}

const sessionCheckers = new WeakMap<pg.Pool, (query: SessionQuery) => Promise<SessionCheck>>();

/**
 * Checks that a session lives, reads the membership of the tenant named, and takes one unit
 * of the session's rate limit, in one call (`authenticate_session_units`), coalesced per
 * (user, session, tenant) like a key's.
 */
export function sessionChecker(
  pool: pg.Pool,
  limit: number,
): (query: SessionQuery) => Promise<SessionCheck> {
  const existing = sessionCheckers.get(pool);
  if (existing) return existing;
  const take = coalescer<SessionQuery, SessionRow>(async (query, units) => {
    const { rows } = await pool.query<SessionRow>({
      name: 'authenticate_session_units',
      text: 'SELECT * FROM authenticate_session_units($1, $2, $3, $4, $5, $6)',
      values: [
        query.userId,
        query.sessionId,
        query.tenant?.value ?? null,
        query.tenant?.isUuid ?? false,
        limit,
        units,
      ],
    });
    const row = rows[0];
    return row?.alive ? row : null;
  });
  const check = (query: SessionQuery) =>
    take(
      `${query.userId}:${query.sessionId}:${query.tenant ? `${query.tenant.isUuid}:${query.tenant.value}` : ''}`,
      query,
    );
  sessionCheckers.set(pool, check);
  return check;
}
