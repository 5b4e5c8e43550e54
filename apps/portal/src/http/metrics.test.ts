import type { RunningServer } from '@erp/http';
import type { Logger } from '@erp/logger';
import { serveMetrics } from '@erp/telemetry';
import { parseMetrics, type Sample, sampleValue } from '@erp/telemetry/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, PASSWORD } from '../../test/harness';
import { buildApp } from '../app';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let metricsServer: RunningServer;
let samples: Sample[];
let scrape: Response;
let scrapedText: string;
const logged: { level: string; message: string; fields: Record<string, unknown> }[] = [];

const MISSING = '00000000-0000-4000-8000-000000000000';

/**
 * A known sequence of requests against a portal with a 2-a-minute API key limit, then one scrape
 * of its metrics listener (the real `GET /metrics`): every counter below is exact.
 */
beforeAll(async () => {
  portal = await createTestPortal({ API_KEY_RATE_LIMIT_PER_MINUTE: '2' });
  const capture =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      logged.push({ level, message, fields });
  const logger: Logger = {
    debug: capture('debug'),
    info: capture('info'),
    warn: capture('warn'),
    error: capture('error'),
  };
  // The same deps (and so the same registry), logging into `logged`.
  const app = buildApp({ ...portal.deps, logger });
  metricsServer = await serveMetrics({
    registry: portal.deps.metrics.registry,
    port: 0,
    host: '127.0.0.1',
  });

  const tenant = await portal.provisionTenant();
  const key = (await portal.createKey(tenant, ['sales:read'])).key;
  for (let i = 0; i < 3; i++) expect((await app.request('/api/v1/health')).status).toBe(200);
  for (const password of ['wrong-1', 'wrong-2']) {
    const res = await app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
      body: JSON.stringify({ email: tenant.adminEmail, password }),
    });
    expect(res.status).toBe(401);
  }
  const statuses = [];
  for (let i = 0; i < 3; i++)
    statuses.push(
      (await app.request('/api/v1/sales-orders', { headers: apiKey(key, tenant.slug) })).status,
    );
  expect(statuses).toEqual([200, 200, 429]);
  expect(
    (await app.request(`/api/v1/customers/${MISSING}`, { headers: apiKey(key, tenant.slug) }))
      .status,
  ).toBe(429);
  expect((await app.request('/api/v1/nope', { method: 'POST' })).status).toBe(404);
  expect(PASSWORD).not.toBe('wrong-1');

  scrape = await fetch(`${metricsServer.url}/metrics`);
  scrapedText = await scrape.text();
  samples = parseMetrics(scrapedText);
});
afterAll(async () => {
  await metricsServer?.close();
  await portal?.tdb.close();
});

const requests = (method: string, route: string, status: string) =>
  sampleValue(samples, 'http_request_duration_seconds_count', { method, route, status });

describe('GET /metrics', () => {
  it('answers Prometheus text, never cached', () => {
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.headers.get('cache-control')).toBe('no-store');
  });

  it('counts requests by route template, method and status, with a latency histogram', () => {
    expect(requests('GET', '/api/v1/health', '200')).toBe(3);
    expect(requests('POST', '/api/v1/auth/login', '401')).toBe(2);
    expect(requests('GET', '/api/v1/sales-orders', '200')).toBe(2);
    expect(requests('GET', '/api/v1/sales-orders', '429')).toBe(1);
    // The template, never the id: one series per route, whatever records are asked for.
    expect(requests('GET', '/api/v1/customers/:id', '429')).toBe(1);
    expect(requests('POST', 'unmatched', '404')).toBe(1);
    expect(scrapedText).not.toContain(MISSING);
    const bucket = (le: string) =>
      sampleValue(samples, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: '/api/v1/health',
        status: '200',
        le,
      });
    expect(bucket('+Inf')).toBe(3);
    expect(bucket('10')).toBe(3);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_sum', {
        method: 'GET',
        route: '/api/v1/health',
        status: '200',
      }),
    ).toBeGreaterThan(0);
  });

  it('counts rate-limit refusals by the route that was refused', () => {
    expect(
      sampleValue(samples, 'rate_limit_refusals_total', { route: '/api/v1/sales-orders' }),
    ).toBe(1);
    expect(
      sampleValue(samples, 'rate_limit_refusals_total', { route: '/api/v1/customers/:id' }),
    ).toBe(1);
  });

  it('counts login failures by method and the code answered', () => {
    expect(
      sampleValue(samples, 'login_failures_total', {
        method: 'password',
        reason: 'identifiants_invalides',
      }),
    ).toBe(2);
  });

  it('reports both pools: connections busy and idle, bound, queries waiting', () => {
    for (const pool of ['main', 'tenant']) {
      const idle = sampleValue(samples, 'db_pool_connections', { pool, state: 'idle' });
      const busy = sampleValue(samples, 'db_pool_connections', { pool, state: 'busy' });
      expect(idle).toBeGreaterThanOrEqual(1);
      expect(busy).toBe(0);
      expect(sampleValue(samples, 'db_pool_max_connections', { pool })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(samples, 'db_pool_waiting_queries', { pool })).toBe(0);
    }
  });

  it('is not on the public port, and its listener serves nothing else', async () => {
    const publicAnswer = await portal.request('/metrics');
    expect(await publicAnswer.text()).not.toContain('http_request_duration_seconds');
    const other = await fetch(`${metricsServer.url}/api/v1/health`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 'introuvable' });
  });
});

describe('the access log', () => {
  it('writes one line per request: request id, method, route, path without query, status, time', () => {
    const lines = logged.filter((l) => l.message === 'request completed');
    expect(lines).toHaveLength(3 + 2 + 3 + 1 + 1);
    const health = lines[0]!;
    expect(health.level).toBe('info');
    expect(health.fields).toEqual({
      request_id: expect.stringMatching(/^[\w-]{8,}$/),
      method: 'GET',
      route: '/api/v1/health',
      path: '/api/v1/health',
      status: 200,
      duration_ms: expect.any(Number),
    });
    expect(lines.find((l) => l.fields.status === 401)?.fields).toMatchObject({
      route: '/api/v1/auth/login',
    });
    // Login bodies are never in it: only the fields above.
    expect(JSON.stringify(logged)).not.toContain('wrong-1');
  });
});
