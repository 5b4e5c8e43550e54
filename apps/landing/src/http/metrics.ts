import {
  Counter,
  createHttpMetrics,
  createMetricsRegistry,
  type HttpMetrics,
  observePools,
  type PoolStats,
  type Registry,
} from '@erp/telemetry';

/** Landing's metrics (SPEC §15): its requests (the public proxy's included), and the sync. */
export interface LandingMetrics extends HttpMetrics {
  /** ERP sync pushes received and applied, by result (`applied`, `unchanged`, `stale`). */
  syncPushes: Counter<'status'>;
}

export function createLandingMetrics(options: {
  pools: { main: PoolStats };
  registry?: Registry;
}): LandingMetrics {
  const registry = options.registry ?? createMetricsRegistry();
  observePools(registry, options.pools);
  return {
    ...createHttpMetrics(registry),
    syncPushes: new Counter({
      name: 'erp_sync_pushes_received_total',
      help: 'ERP sync pushes accepted from the worker, by result (applied, unchanged, stale); refusals are in the request histogram.',
      labelNames: ['status'],
      registers: [registry],
    }),
  };
}
