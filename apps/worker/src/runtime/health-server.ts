import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthServerOptions {
  port: number;
  host: string;
  /** When this process last wrote its heartbeat; null before the first one. */
  lastBeat: () => Date | null;
  /** Older than this, the process is reported dead (the other workers unlock its jobs then). */
  deadAfterMs: number;
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
 * for dead, so the orchestrator restarts it on the same rule.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const now = options.now ?? (() => new Date());
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/health' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"status":"not_found"}');
      return;
    }
    const last = options.lastBeat();
    const ageMs = last ? now().getTime() - last.getTime() : null;
    const alive = ageMs !== null && ageMs < options.deadAfterMs;
    const body = JSON.stringify({
      status: alive ? 'ok' : 'stale',
      last_heartbeat: last?.toISOString() ?? null,
      age_ms: ageMs,
    });
    response.writeHead(alive ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  // Probes are short: an idle keep-alive connection must not hold the shutdown.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
