import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, strictBodies } from './body';
import { bodyTooLarge, createErrorHandler, notFound } from './errors';
import { type RunningServer, serveApp } from './node-server';
import { checkClientsSurviveRefusals, rawExchange, standardRefusals } from './testing';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** An app shaped like ours: request id, body limit, strict bodies, the one error handler. */
function testApp(): Hono {
  const app = new Hono();
  app.use(requestId());
  app.onError(createErrorHandler(silent));
  app.notFound(notFound);
  app.use(bodyLimit({ maxSize: 64 * 1024, onError: bodyTooLarge(64 * 1024) }));
  app.use(strictBodies());
  app.get('/ping', (c) => c.json({ ok: true }));
  app.post('/echo', async (c) => c.json({ received: await readJson(c) }));
  return app;
}

let server: RunningServer;
beforeAll(async () => {
  server = await serveApp({ fetch: testApp().fetch, port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

describe('serveApp', () => {
  it('keeps two pooled clients working after 413, 431 and 400 answers', async () => {
    const report = await checkClientsSurviveRefusals(
      server.url,
      standardRefusals({ post: '/echo', get: '/ping' }),
      { path: '/ping', status: 200 },
      4,
    );
    expect(report.failures).toEqual([]);
    expect(report.requests).toBe(2 * 4 * 3 * 2);
  });

  it('answers a 413 sent before the body arrived with Connection: close', async () => {
    const response = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `"${'a'.repeat(1024 * 1024)}"`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ code: 'charge_trop_volumineuse' });
  });

  it('keeps the connection of a refusal whose body was read in full', async () => {
    const response = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[1,',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('connection')).toBe('keep-alive');
  });

  it('answers header overflow in the error shape with a request id (431)', async () => {
    const reply = await rawExchange(
      server.port,
      `GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(reply).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
    expect(reply).toMatch(/\r\nConnection: close\r\n/i);
    const body = JSON.parse(reply.split('\r\n\r\n')[1] ?? '');
    expect(body).toEqual({
      code: 'en_tetes_trop_volumineux',
      params: {},
      message: expect.any(String),
    });
  });

  it.each([
    ['a malformed request line', 'GET /ping HTTP/9.9 extra\r\n\r\n'],
    ['a bad header name', 'GET /ping HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    ['a bare LF request', 'GET /ping HTTP/1.1\nHost: x\n\n'],
    [
      'conflicting lengths',
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
    ],
  ])('answers %s with 400 requete_invalide in the error shape', async (_name, bytes) => {
    const reply = await rawExchange(server.port, bytes);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/\r\nX-Request-Id: /i);
    const body = JSON.parse(reply.split('\r\n\r\n')[1] ?? '');
    expect(body).toMatchObject({
      code: 'requete_invalide',
      params: { reason: expect.any(String) },
    });
  });
});
