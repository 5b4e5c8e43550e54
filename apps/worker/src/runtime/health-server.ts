import { notFound, serveApp } from '@erp/http';
import { metricsHandler, type Registry } from '@erp/telemetry';
import { Hono } from 'hono';

export interface HealthServerOptions {
  port: number;
  host: string;
  /** When this process last wrote its heartbeat; null before the first one. */
  lastBeat: () => Date | null;
  /** Older than this, the process is reported dead (the other workers unlock its jobs then). */
  deadAfterMs: number;
  /** Served as `GET /metrics` (Prometheus text): the worker has no other port (SPEC §15). */
  registry?: Registry;
  now?: () => Date;
}

export interface HealthServer {
  /** The port actually bound (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's liveness signal over HTTP, for Kubernetes' `httpGet` probe and Docker's
 * HEALTHCHECK: `GET /health` answers 200 while the last heartbeat is younger than
 * `deadAfterMs`, else 503. A worker whose heartbeat stalls is exactly the one its peers take
 * for dead, so the orchestrator restarts it on the same rule. Served like the other apps
 * (@erp/http), so its errors have the same shape.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const now = options.now ?? (() => new Date());
  const app = new Hono();
  app.notFound(notFound);
  app.get('/health', (c) => {
    const last = options.lastBeat();
    const ageMs = last ? now().getTime() - last.getTime() : null;
    const alive = ageMs !== null && ageMs < options.deadAfterMs;
    c.header('cache-control', 'no-store');
    return c.json(
      {
        status: alive ? 'ok' : 'stale',
        last_heartbeat: last?.toISOString() ?? null,
        age_ms: ageMs,
      },
      alive ? 200 : 503,
    );
  });
  if (options.registry) app.get('/metrics', metricsHandler(options.registry));
  const server = await serveApp({ fetch: app.fetch, port: options.port, host: options.host });
  // Probes are short: an idle keep-alive connection must not hold the shutdown.
  server.server.keepAliveTimeout = 1000;
  return { port: server.port, close: server.close };
}
