import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Latency buckets in seconds: from a millisecond (an API-key read served from memory and one
 * round trip) to ten seconds (an export, a login under argon2 on a loaded machine).
 */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * A registry of one app instance. Each app (and each test) owns its own rather than
 * prom-client's global one: two portals in one test process must not count into each other.
 * `processMetrics` adds prom-client's defaults (CPU, memory, event-loop lag, GC): for main.ts.
 */
export function createMetricsRegistry(options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return registry;
}

/** What every HTTP app counts about its requests (see `observeRequests`). */
export interface HttpMetrics {
  registry: Registry;
  /** By route template (never the raw path: ids would make a series per record), method, status. */
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** Answers 429 `limite_depassee`, by route template: the route names the limit that refused. */
  rateLimitRefusals: Counter<'route'>;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  return {
    registry,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to the response headers, by method, route template and status (the _count is the request count).',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429 limite_depassee), by route template.',
      labelNames: ['route'],
      registers: [registry],
    }),
  };
}
