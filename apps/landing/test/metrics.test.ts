import type { RunningServer } from '@erp/http';
import { serveMetrics } from '@erp/telemetry';
import { parseMetrics, type Sample, sampleValue } from '@erp/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTo, snapshot } from './erp-sync-fixtures';
import { startPortalStandIn } from './portal-stand-in';
import { send, startTestLandingServer } from './servers';

let portal: Awaited<ReturnType<typeof startPortalStandIn>>;
let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
let metricsServer: RunningServer;
let samples: Sample[];

/** A known sequence through landing's real server, then one scrape of its metrics listener. */
beforeAll(async () => {
  portal = await startPortalStandIn();
  landing = await startTestLandingServer({
    PORTAL_URL: portal.url,
    TRUST_PROXY: 'true',
    FORM_RATE_LIMIT_PER_HOUR: '1',
  });
  metricsServer = await serveMetrics({
    registry: landing.deps.metrics.registry,
    port: 0,
    host: '127.0.0.1',
  });
  for (const path of ['/api/v1/public/json?page=1', '/api/v1/public/json?page=2'])
    expect((await send(landing.port, { path })).status).toBe(200);
  const contact = JSON.stringify({ name: 'Ada', email: 'ada@example.test', message: 'Hello.' });
  const statuses = [];
  for (let i = 0; i < 2; i++) {
    const response = await send(landing.port, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.9' },
      body: contact,
    });
    statuses.push(response.status);
  }
  expect(statuses).toEqual([202, 429]);
  expect((await pushTo(landing, snapshot())).status).toBe(200);
  expect((await pushTo(landing, snapshot())).status).toBe(200);
  expect((await pushTo(landing, snapshot(), 'not-the-sync-key-0123456789')).status).toBe(401);
  samples = parseMetrics(await (await fetch(`${metricsServer.url}/metrics`)).text());
});
afterAll(async () => {
  await metricsServer?.close();
  await landing?.close();
  await portal?.close();
});

describe('landing GET /metrics', () => {
  it('counts the public proxy’s requests under one route, whatever the path', () => {
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/public/*',
        status: '200',
      }),
    ).toBe(2);
  });

  it('counts the forms’ rate-limit refusals', () => {
    expect(sampleValue(samples, 'rate_limit_refusals_total', { route: '/api/contact' })).toBe(1);
  });

  it('counts the sync pushes by result; refused ones by status', () => {
    expect(sampleValue(samples, 'erp_sync_pushes_received_total', { status: 'applied' })).toBe(1);
    expect(sampleValue(samples, 'erp_sync_pushes_received_total', { status: 'unchanged' })).toBe(1);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/erp-sync',
        status: '401',
      }),
    ).toBe(1);
  });

  it('reports its pool', () => {
    expect(sampleValue(samples, 'db_pool_max_connections', { pool: 'main' })).toBeGreaterThan(0);
    expect(sampleValue(samples, 'db_pool_waiting_queries', { pool: 'main' })).toBe(0);
  });

  it('is never served on the public port, nor forwarded to the portal', async () => {
    const before = portal.received.length;
    for (const path of ['/metrics', '/api/metrics', '/api/v1/metrics']) {
      const response = await send(landing.port, { path });
      expect(response.status).toBe(404);
      expect(response.body.toString()).not.toContain('http_request_duration_seconds');
    }
    expect(portal.received.length).toBe(before);
  });
});
