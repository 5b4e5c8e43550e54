/**
 * OpenTelemetry across processes (SPEC §15): portal and worker export to an OTLP receiver in
 * this test; a lead created through the API becomes a webhook delivery whose span, in the
 * worker, links to the portal's request span through the trace context stored with the event.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from './otlp-receiver';
import { eventually, type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let platform: Platform;
let hooks: http.Server;
let hooksUrl: string;
let key: string;
const delivered: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hooks = http.createServer((req, res) => {
    req.resume().on('end', () => {
      delivered.push(req.headers);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks/secret-path-token`;
  // Spans leave every 100 ms rather than every 5 s.
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  platform = await startPlatform({ portal: tracing, worker: tracing, landing: tracing });
  key = (await createApiKey(platform, ['crm:write', 'webhooks'])).key;
});
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => hooks?.close(resolve));
  await otlp?.close();
});

const api = (path: string, body: unknown) =>
  fetch(`${platform.portalUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'x-tenant-id': 'demo',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });

describe('traces', () => {
  it('links the worker’s delivery span to the portal request that recorded the event', async () => {
    const subscription = await api('/api/v1/settings/webhooks', {
      url: hooksUrl,
      events: ['lead.created'],
    });
    expect(subscription.status).toBe(201);
    const created = await api('/api/v1/leads', { title: 'Traced lead', contact_name: 'Ada' });
    expect(created.status).toBe(201);
    const lead = (await created.json()) as { id: string };
    await eventually('the delivery', async () => delivered.length > 0, 30_000);

    // The portal's request span, named by its route template.
    const request = await eventually('the request span', async () =>
      otlp.spans.find((s) => s.service === 'portal' && s.name === 'POST /api/v1/leads'),
    );
    expect(request.kind).toBe(SERVER);
    expect(request.parentSpanId).toBe('');
    expect(request.attributes['http.route']).toBe('/api/v1/leads');
    expect(request.attributes['http.response.status_code']).toBe(201);
    // Its statements, children of it: their text, never their values.
    const statements = otlp.spans.filter(
      (s) => s.traceId === request.traceId && s.attributes['db.system.name'] === 'postgresql',
    );
    expect(statements.length).toBeGreaterThan(0);
    expect(JSON.stringify(statements)).not.toContain('Traced lead');

    // The worker's delivery span: a trace of its own, linked to the request.
    const delivery = await eventually('the delivery span', async () =>
      otlp.spans.find((s) => s.service === 'worker' && s.name === 'webhook delivery'),
    );
    expect(delivery.kind).toBe(CONSUMER);
    expect(delivery.links).toEqual([{ traceId: request.traceId, spanId: request.spanId }]);
    expect(delivery.traceId).not.toBe(request.traceId);
    expect(delivery.attributes).toMatchObject({
      'webhook.event_type': 'lead.created',
      'webhook.attempt': 1,
      'webhook.outcome': 'delivered',
      'http.response.status_code': 204,
    });
    // The POST to the subscriber is the delivery span's child (undici), its URL cut to the origin.
    const post = await eventually('the subscriber POST span', async () =>
      otlp.spans.find((s) => s.service === 'worker' && s.parentSpanId === delivery.spanId),
    );
    expect(post.kind).toBe(CLIENT);
    expect(post.attributes['url.full']).toBe(new URL(hooksUrl).origin);
    expect(JSON.stringify(otlp.spans)).not.toContain('secret-path-token');

    // The stored trace context is the request span's.
    const { rows } = await platform.db.pool.query<{ trace_context: string }>(
      "SELECT trace_context FROM events WHERE resource_id = $1 AND type = 'lead.created'",
      [lead.id],
    );
    expect(rows).toEqual([{ trace_context: `00-${request.traceId}-${request.spanId}-01` }]);
  });

  it('exports OTLP/HTTP protobuf to <endpoint>/v1/traces, and traces no probe', async () => {
    // A request of landing's own: its spans need not have left yet (the worker's start-up sync
    // push is its only other traffic here, and may come late on a busy machine).
    const page = await fetch(`${platform.landingUrl}/`);
    expect(page.status).toBe(200);
    await page.body?.cancel();
    await eventually("landing's span of it", async () =>
      otlp.spans.some((s) => s.service === 'landing' && s.name === 'GET /'),
    );
    expect(otlp.requests.length).toBeGreaterThan(0);
    for (const r of otlp.requests) {
      expect(r.path).toBe('/v1/traces');
      expect(r.contentType).toBe('application/x-protobuf');
    }
    expect(otlp.spans.filter((s) => s.name.includes('health'))).toEqual([]);
    expect(new Set(otlp.spans.map((s) => s.service))).toEqual(
      new Set(['portal', 'worker', 'landing']),
    );
  });
});
