/**
 * One server of `pnpm bench observability`: the front every app has (request id, then
 * `observeRequests`) before a route with a template, as much of it as OBS_VARIANT says:
 * - `bare`: the request id only (what the apps did before);
 * - `metrics`: + the request histogram and the route template, the access log silent;
 * - `logs`: + the access log, JSON at info (pino, to /dev/null);
 * - `traces`: + OpenTelemetry (http instrumentation, batch export to the benchmark's sink).
 */
import { createRequire } from 'node:module';
import { serveApp } from '@erp/http';
import { createLogger } from '@erp/logger';
import {
  createHttpMetrics,
  createMetricsRegistry,
  observeRequests,
  startTracing,
} from '@erp/telemetry';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { pino } from 'pino';

const variant = process.env.OBS_VARIANT ?? 'bare';
await startTracing({
  service: 'bench',
  endpoint: variant === 'traces' ? process.env.OTEL_EXPORTER_OTLP_ENDPOINT : undefined,
  require: createRequire(import.meta.url),
});
const logger = createLogger(
  variant === 'bare' || variant === 'metrics' ? 'silent' : 'info',
  'bench',
  {
    // As the apps write stdout (synchronously), to a file nobody reads.
    destination: pino.destination({ dest: '/dev/null', sync: true }),
  },
);
const app = new Hono<{ Variables: { requestId: string } }>();
app.use(requestId());
if (variant !== 'bare') {
  const metrics = createHttpMetrics(createMetricsRegistry());
  app.use(observeRequests({ logger, metrics }));
}
app.get('/api/v1/items/:id', (c) => c.json({ id: c.req.param('id'), name: 'item' }));
const server = await serveApp({
  fetch: app.fetch,
  port: Number(process.env.PORT),
  host: '127.0.0.1',
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
