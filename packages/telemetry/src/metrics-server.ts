import { notFound, type RunningServer, serveApp } from '@erp/http';
import { type Context, Hono } from 'hono';
import type { Registry } from 'prom-client';

/** `GET /metrics`: the registry in Prometheus' text format, never cached. */
export function metricsHandler(registry: Registry) {
  return async function serveMetricsText(c: Context): Promise<Response> {
    c.header('content-type', registry.contentType);
    c.header('cache-control', 'no-store');
    return c.body(await registry.metrics());
  };
}

/**
 * The metrics listener of portal and landing: `GET /metrics` on a port of its own, so the
 * public port never serves it (no proxy or ingress rule to get right) and a scrape never
 * queues behind the app's own traffic limits. Everything else is 404 in the error shape.
 */
export async function serveMetrics(options: {
  registry: Registry;
  port: number;
  host: string;
}): Promise<RunningServer> {
  const app = new Hono();
  app.notFound(notFound);
  app.get('/metrics', metricsHandler(options.registry));
  const server = await serveApp({ fetch: app.fetch, port: options.port, host: options.host });
  // Scrapes are short: an idle keep-alive connection must not hold the shutdown.
  server.server.keepAliveTimeout = 1000;
  return server;
}
