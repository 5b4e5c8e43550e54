import {
  Counter,
  createHttpMetrics,
  createMetricsRegistry,
  type HttpMetrics,
  observePools,
  type PoolStats,
  type Registry,
} from '@erp/telemetry';

/** The portal's metrics (SPEC §15): its requests, and what only the portal knows. */
export interface PortalMetrics extends HttpMetrics {
  /** Sign-ins refused after the password or the provider was checked, by method and code. */
  loginFailures: Counter<'method' | 'reason'>;
}

/** The portal's registry: requests, rate-limit refusals, login failures, the pools. */
export function createPortalMetrics(options: {
  /** `export`: the exports' own pool, when they have one. */
  pools: { main: PoolStats; tenant: PoolStats; export?: PoolStats };
  registry?: Registry;
}): PortalMetrics {
  const registry = options.registry ?? createMetricsRegistry();
  const { export: exportPool, ...pools } = options.pools;
  observePools(
    registry,
    exportPool && exportPool !== pools.tenant ? { ...pools, export: exportPool } : pools,
  );
  return {
    ...createHttpMetrics(registry),
    loginFailures: new Counter({
      name: 'login_failures_total',
      help: 'Sign-ins refused (wrong password, unknown account, not a member, SSO required...), by method and the code answered; throttled attempts are rate_limit_refusals_total.',
      labelNames: ['method', 'reason'],
      registers: [registry],
    }),
  };
}
