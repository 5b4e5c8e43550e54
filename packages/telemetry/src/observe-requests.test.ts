import type { Logger } from '@erp/logger';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { createHttpMetrics, createMetricsRegistry } from './metrics';
import { observeRequests } from './observe-requests';
import { parseMetrics, sampleValue } from './testing';

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** An app shaped like the portal's: global middleware, route middleware, a catch-all GET last. */
function app() {
  const metrics = createHttpMetrics(createMetricsRegistry());
  const hono = new Hono<{ Variables: { requestId: string } }>();
  hono.use(requestId());
  hono.use(observeRequests({ logger: silent, metrics }));
  hono.use(async function refuseLargeBodies(c, next) {
    if (c.req.header('x-too-large')) throw new HTTPException(413);
    await next();
  });
  hono.onError((error, c) => c.json({}, error instanceof HTTPException ? error.status : 500));
  const limited = async (
    c: { req: { header(name: string): string | undefined } },
    next: () => Promise<void>,
  ) => {
    if (c.req.header('x-over-limit')) throw new HTTPException(429);
    await next();
  };
  hono.get('/api/v1/orders/:id', limited, (c) => c.json({ id: c.req.param('id') }));
  hono.post('/api/v1/orders', limited, (c) => c.json({}, 201));
  hono.get('/*', (c) => (c.req.path.startsWith('/api/') ? c.notFound() : c.html('<p>console</p>')));
  return { hono, metrics };
}

async function series(metrics: ReturnType<typeof createHttpMetrics>) {
  return parseMetrics(await metrics.registry.metrics());
}

describe('observeRequests: the route label', () => {
  it('is the template of the route that answered, never the path', async () => {
    const { hono, metrics } = app();
    for (const id of ['a', 'b', 'c']) await hono.request(`/api/v1/orders/${id}`);
    const samples = await series(metrics);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/orders/:id',
        status: '200',
      }),
    ).toBe(3);
    expect(samples.some((s) => /\/[abc]$/.test(s.labels.route ?? ''))).toBe(false);
  });

  it('names the route a route middleware refused (429), and counts the refusal', async () => {
    const { hono, metrics } = app();
    await hono.request('/api/v1/orders/x', { headers: { 'x-over-limit': '1' } });
    const samples = await series(metrics);
    expect(sampleValue(samples, 'rate_limit_refusals_total', { route: '/api/v1/orders/:id' })).toBe(
      1,
    );
  });

  it('names the route even when a global middleware refused before it (413)', async () => {
    const { hono, metrics } = app();
    await hono.request('/api/v1/orders', { method: 'POST', headers: { 'x-too-large': '1' } });
    expect(
      sampleValue(await series(metrics), 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/orders',
        status: '413',
      }),
    ).toBe(1);
  });

  it('is `unmatched` when no route took the request, and the catch-all’s own for its pages', async () => {
    const { hono, metrics } = app();
    await hono.request('/api/v1/nope', { method: 'DELETE' });
    await hono.request('/settings/users');
    const samples = await series(metrics);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', {
        method: 'DELETE',
        route: 'unmatched',
        status: '404',
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/*',
        status: '200',
      }),
    ).toBe(1);
  });
});
