import { Gauge, type Registry } from 'prom-client';

/** What a `pg.Pool` tells about itself (typed here so this package needs no pg). */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/**
 * Connection-pool gauges, read at each scrape (nothing runs between scrapes): connections
 * busy and idle, the pool's bound, and the queries waiting for a connection (a pool too small
 * for its load, or connections held too long, shows there first).
 */
export function observePools(registry: Registry, pools: Record<string, PoolStats>): void {
  const entries = Object.entries(pools);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Open connections of a database pool, by state (busy, idle).',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const [pool, stats] of entries) {
        this.set({ pool, state: 'busy' }, stats.totalCount - stats.idleCount);
        this.set({ pool, state: 'idle' }, stats.idleCount);
      }
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The bound of a database pool.',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [pool, stats] of entries) this.set({ pool }, stats.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_queries',
    help: 'Queries waiting for a connection of a database pool.',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const [pool, stats] of entries) this.set({ pool }, stats.waitingCount);
    },
  });
}
