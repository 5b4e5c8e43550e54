import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY, GZIPPED, startPortalStandIn } from './portal-stand-in';
import { send, sendRaw, startTestLandingServer } from './servers';

let portal: Awaited<ReturnType<typeof startPortalStandIn>>;
let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
beforeAll(async () => {
  portal = await startPortalStandIn();
  landing = await startTestLandingServer({ PORTAL_URL: portal.url, BODY_LIMIT_BYTES: '1024' });
});
afterAll(async () => {
  await landing?.close();
  await portal?.close();
});

const last = () => portal.received[portal.received.length - 1];

describe('public proxy: what the portal receives', () => {
  it('gets the same method, raw path and query, end-to-end headers, and no hop-by-hop header', async () => {
    const path = '/api/v1/public/json?x=1&y=a%2Fb&z=%20';
    const response = await send(landing.port, {
      path,
      headers: {
        Authorization: 'Bearer token',
        Cookie: 'session=1',
        'Accept-Encoding': 'gzip',
        Connection: 'keep-alive, X-Client-Hop',
        'X-Client-Hop': 'secret',
        'Keep-Alive': 'timeout=5',
        'Proxy-Authorization': 'Basic eDp5',
        TE: 'trailers',
        Upgrade: 'h2c',
        'X-Forwarded-For': '6.6.6.6',
        'X-Forwarded-Host': 'spoofed.example',
        Host: 'www.example.test',
        'X-Request-Id': 'client-id-123',
      },
    });
    expect(response.status).toBe(200);
    const seen = last();
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe(path);
    expect(seen?.headers).toMatchObject({
      authorization: 'Bearer token',
      cookie: 'session=1',
      'accept-encoding': 'gzip',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'www.example.test',
      'x-request-id': 'client-id-123',
      host: new URL(portal.url).host,
    });
    for (const name of [
      'x-client-hop',
      'keep-alive',
      'proxy-authorization',
      'te',
      'trailer',
      'upgrade',
    ])
      expect(seen?.headers, name).not.toHaveProperty(name);
    expect(response.headers['x-request-id']).toBe('client-id-123');
  });

  it('drops Transfer-Encoding and Trailer of a chunked upload, keeping its bytes', async () => {
    const head = 'Transfer-Encoding: chunked\r\nTrailer: X-Sum\r\nContent-Type: text/plain\r\n';
    const response = await sendRaw(
      landing.port,
      '/api/v1/public/echo',
      'POST',
      head,
      '5\r\nhello\r\n0\r\nX-Sum: 5\r\n\r\n',
    );
    expect([response.status, response.body]).toEqual([201, 'hello']);
    expect(last()?.body.toString()).toBe('hello');
    expect(last()?.headers).not.toHaveProperty('trailer');
    // At most undici's own framing header: the client's is never copied.
    expect(last()?.rawHeaders.filter((h) => /^transfer-encoding$/i.test(h)).length).toBeLessThan(2);
  });

  it('gives the portal and the response the same generated request id', async () => {
    const response = await send(landing.port, { path: '/api/v1/public/json' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(last()?.headers['x-request-id']).toBe(response.headers['x-request-id']);
  });

  it('streams a request body over the body limit unchanged, with a chunked upload too', async () => {
    const body = randomBytes(300_000);
    const response = await send(landing.port, {
      method: 'POST',
      path: '/api/v1/public/echo',
      headers: { 'content-type': 'application/octet-stream' },
      body,
    });
    expect(response.status).toBe(201);
    expect(last()?.body.equals(body)).toBe(true);
    expect(response.body.equals(body)).toBe(true);
  });

  it('forwards the first bytes of an upload before the client has sent the rest', async () => {
    const request = http.request({
      host: '127.0.0.1',
      port: landing.port,
      method: 'PUT',
      path: '/api/v1/public/echo',
      headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
    });
    const answered = new Promise<string>((resolve) =>
      request.on('response', (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(text));
      }),
    );
    request.write('part one;');
    expect((await portal.firstUploadChunk).toString()).toBe('part one;');
    request.end('part two');
    expect(await answered).toBe('part one;part two');
    expect(last()?.method).toBe('PUT');
  });
});

describe('public proxy: what the client receives', () => {
  it('gets status, bytes and end-to-end headers; Set-Cookie twice; hop-by-hop headers dropped', async () => {
    const response = await send(landing.port, { path: '/api/v1/public/json' });
    expect(response.body.toString()).toBe(
      JSON.stringify({ data: [{ code: 'business', name: 'Business' }] }),
    );
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers['x-custom']).toBe('kept');
    expect(response.headers['set-cookie']).toEqual([
      'a=1; Path=/; HttpOnly',
      'b=2; Path=/; Secure',
    ]);
    for (const name of ['x-upstream-hop', 'proxy-authenticate', 'upgrade', 'trailer'])
      expect(response.headers, name).not.toHaveProperty(name);
    expect(response.headers['keep-alive'] ?? '').not.toContain('99');
    expect(response.headers['x-request-id']).not.toBe('portal-chose-another-id');
  });

  it('passes binary and gzip bodies byte for byte, Content-Encoding included', async () => {
    const binary = await send(landing.port, { path: '/api/v1/public/binary' });
    expect(binary.body.equals(BINARY)).toBe(true);
    expect(binary.headers['content-length']).toBe(String(BINARY.length));
    const gzip = await send(landing.port, {
      path: '/api/v1/public/gzip',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-length']).toBe(String(GZIPPED.length));
    expect(gzip.body.equals(GZIPPED)).toBe(true);
  });

  it('streams a chunked response: the first chunk arrives before the portal sends the rest', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: landing.port, path: '/api/v1/public/chunked' }, (res) => {
          let text = '';
          res.on('data', (chunk) => {
            if (!text) portal.release(); // only the first chunk can have arrived here
            text += chunk;
          });
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('first chunk;second chunk;last chunk');
  });

  it.each([201, 204, 304, 404, 418, 500, 503])(
    'passes status %i through with its body',
    async (code) => {
      const response = await send(landing.port, { path: `/api/v1/public/status/${code}` });
      expect(response.status).toBe(code);
      expect(response.body.toString()).toBe(
        code === 204 || code === 304 ? '' : JSON.stringify({ status: code }),
      );
      expect(response.headers.etag).toBe('"v1"');
      if (code === 503) expect(response.headers['retry-after']).toBe('7');
    },
  );

  it('answers HEAD with the headers only, and waits for a slow portal within the deadline', async () => {
    const head = await send(landing.port, { method: 'HEAD', path: '/api/v1/public/binary' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(BINARY.length));
    expect(head.body.length).toBe(0);
    const slow = await send(landing.port, { path: '/api/v1/public/slow' });
    expect([slow.status, slow.body.toString()]).toEqual([200, '{"slow":true}']);
  });
});

describe('public proxy without a socket (app.request)', () => {
  it('answers with a web Response carrying the same bytes and both cookies', async () => {
    const binary = await landing.app.request('/api/v1/public/binary');
    expect(Buffer.from(await binary.arrayBuffer()).equals(BINARY)).toBe(true);
    const json = await landing.app.request('/api/v1/public/json');
    expect(json.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Secure']);
    expect(json.headers.get('x-upstream-hop')).toBeNull();
    expect(last()?.headers['x-forwarded-for']).toBe('unknown');
  });
});
