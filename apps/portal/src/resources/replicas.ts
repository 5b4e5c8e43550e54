import { Counter, Gauge, type Registry } from '@erp/telemetry';
import pg from 'pg';
import type { TenantDatabase } from './tenant-database';

/**
 * Reads on read replicas, with read-your-writes (SPEC §19, DATABASE_REPLICA_URLS).
 *
 * - After a write that answered 2xx, its tenant's position is kept on the primary: the WAL
 *   insert location then (`pg_current_wal_insert_lsn()`, past the write's commit record even when
 *   `synchronous_commit` is off and the record is not yet written out), in the UNLOGGED
 *   `tenant_positions`, where every portal instance sees it. By tenant, not by caller: whoever
 *   wrote, everyone of the tenant reads it at once (a colleague, a second API key, the console
 *   after an integration's write), which per-caller positions would not promise.
 * - A read goes to a replica that has replayed that position (its `pg_last_wal_replay_lsn()`,
 *   polled), that is up and not further behind than `maxLagBytes`; else to the primary. A
 *   replica polled earlier can only be behind what it really replayed, so a stale poll sends a
 *   read to the primary, never a read that misses a write the tenant made through the API.
 * - A replica that fails a poll is left out until a poll succeeds again; a read it fails on a
 *   connection error is run again on the primary (a stopped replica loses no request).
 * - Writes, locks, transactions, the outbox and the worker are the primary's: only the engine's
 *   plain reads (list, get, history) come here.
 */
export interface ReadRouter {
  read<T>(tenantId: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Keeps the tenant's position after a write; nothing without replicas. */
  wrote(tenantId: string): Promise<void>;
  /** The replicas as last polled (tests, metrics). */
  readonly replicas: readonly ReplicaState[];
  /** Polls every replica now (tests; the timer does it every `pollMs`). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaState {
  name: string;
  up: boolean;
  /** Replayed WAL position, as a number of bytes. */
  replayed: bigint;
  /** Bytes behind the primary at the last poll. */
  lagBytes: bigint;
}

interface Replica extends ReplicaState {
  db: TenantDatabase;
  probe: pg.Pool;
}

/** `16/B374D848` → bytes. */
export function lsnBytes(lsn: string | null | undefined): bigint {
  if (!lsn) return 0n;
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A connection error (the replica stopped, restarted, or is unreachable), not a statement's. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  // Not a SQLSTATE: a socket's (ECONNREFUSED, ECONNRESET…), or pg's own "Connection terminated".
  if (!code || !/^[0-9A-Z]{5}$/.test(code)) return true;
  // 08: connection exceptions; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

export function createReadRouter(options: {
  primary: TenantDatabase;
  /** The primary's main pool: where positions are kept and its WAL position read. */
  main: pg.Pool;
  replicaUrls: readonly string[];
  /** A tenant database on a replica's URL (same binding and limits as the primary's). */
  openReplica: (url: string) => TenantDatabase;
  registry: Registry;
  pollMs?: number;
  /** A replica further behind than this serves no read (16 MiB of WAL by default). */
  maxLagBytes?: bigint;
}): ReadRouter {
  const maxLag = options.maxLagBytes ?? 16n * 1024n * 1024n;
  const replicas: Replica[] = options.replicaUrls.map((url) => {
    const parsed = new URL(url);
    const probe = new pg.Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: 1_000,
      application_name: 'portal-replica-probe',
    });
    // A replica that stops kills its idle connections: a poll notices, nothing crashes.
    probe.on('error', () => {});
    probe.on('connect', (client) => client.on('error', () => {}));
    return {
      name: `${parsed.hostname}:${parsed.port || 5432}`,
      up: false,
      replayed: 0n,
      lagBytes: 0n,
      db: options.openReplica(url),
      probe,
    };
  });
  const reads = new Counter({
    name: 'database_reads_total',
    help: 'Engine reads (list, get, history) by where they ran: replica, or primary and why (no_replica: none up and close enough; not_replayed: none has replayed the tenant’s last write yet; replica_failed: the replica failed mid-read).',
    labelNames: ['target', 'reason'],
    registers: [options.registry],
  });
  const lag = new Gauge({
    name: 'database_replica_lag_bytes',
    help: 'WAL bytes a replica is behind the primary, at its last poll.',
    labelNames: ['replica'],
    registers: [options.registry],
  });
  const up = new Gauge({
    name: 'database_replica_up',
    help: '1 when the replica answered its last poll and serves reads, else 0.',
    labelNames: ['replica'],
    registers: [options.registry],
  });
  let next = 0;

  async function poll(): Promise<void> {
    if (!replicas.length) return;
    let current = 0n;
    try {
      const { rows } = await options.main.query<{ lsn: string }>(
        'SELECT pg_current_wal_lsn()::text AS lsn',
      );
      current = lsnBytes(rows[0]?.lsn);
    } catch {
      // The primary's own trouble shows elsewhere; the lag is then unknown (0).
    }
    await Promise.all(
      replicas.map(async (replica) => {
        try {
          const { rows } = await replica.probe.query<{ lsn: string | null; recovery: boolean }>(
            'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovery',
          );
          const replayed = lsnBytes(rows[0]?.lsn);
          replica.replayed = replayed;
          replica.lagBytes = current > replayed ? current - replayed : 0n;
          // A promoted replica is a primary of its own: no longer one to read the primary's writes on.
          replica.up = rows[0]?.recovery === true;
        } catch {
          replica.up = false;
        }
        up.set({ replica: replica.name }, replica.up ? 1 : 0);
        lag.set({ replica: replica.name }, Number(replica.lagBytes));
      }),
    );
  }

  const timer = replicas.length ? setInterval(() => void poll(), options.pollMs ?? 200) : undefined;
  timer?.unref();
  const ready = poll();

  async function positionOf(tenantId: string): Promise<bigint> {
    const { rows } = await options.main.query<{ lsn: string }>({
      name: 'tenant_position',
      text: 'SELECT lsn::text AS lsn FROM tenant_positions WHERE tenant_id = $1',
      values: [tenantId],
    });
    return lsnBytes(rows[0]?.lsn);
  }

  return {
    replicas,
    poll,
    async read(tenantId, work) {
      await ready;
      const usable = replicas.filter((r) => r.up && r.lagBytes <= maxLag);
      if (!usable.length) {
        if (replicas.length) reads.inc({ target: 'primary', reason: 'no_replica' });
        return options.primary.run(tenantId, work);
      }
      const position = await positionOf(tenantId);
      const caughtUp = usable.filter((r) => r.replayed >= position);
      if (!caughtUp.length) {
        reads.inc({ target: 'primary', reason: 'not_replayed' });
        return options.primary.run(tenantId, work);
      }
      const replica = caughtUp[next++ % caughtUp.length]!;
      try {
        const result = await replica.db.run(tenantId, work);
        reads.inc({ target: 'replica', reason: '' });
        return result;
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        replica.up = false;
        up.set({ replica: replica.name }, 0);
        reads.inc({ target: 'primary', reason: 'replica_failed' });
        return options.primary.run(tenantId, work);
      }
    },
    async wrote(tenantId) {
      if (!replicas.length) return;
      await options.main.query({
        name: 'tenant_wrote',
        text: `INSERT INTO tenant_positions AS p (tenant_id, lsn) VALUES ($1, pg_current_wal_insert_lsn())
               ON CONFLICT (tenant_id) DO UPDATE SET lsn = excluded.lsn, updated_at = now()
               WHERE p.lsn < excluded.lsn`,
        values: [tenantId],
      });
    },
    async close() {
      if (timer) clearInterval(timer);
      await ready;
      await Promise.all(replicas.flatMap((r) => [r.db.close(), r.probe.end()]));
    },
  };
}
