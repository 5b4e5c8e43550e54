import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** What the stand-in received, exactly as it arrived. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export const BINARY = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  randomBytes(70_000),
]);
export const GZIPPED = gzipSync(Buffer.from('{"plans":"compressed"}'.repeat(200)));

/**
 * A `node:http` server on 127.0.0.1 standing in for the portal: it records every request and
 * answers by path (JSON, binary, gzip, chunked, any status, slow, never). `release()` lets the
 * held chunked response finish; `firstChunk` resolves when a streamed upload's first bytes arrive.
 */
export async function startPortalStandIn() {
  const received: ReceivedRequest[] = [];
  let releaseHeld: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    releaseHeld = resolve;
  });
  let firstChunk: (chunk: Buffer) => void = () => {};
  const firstUploadChunk = new Promise<Buffer>((resolve) => {
    firstChunk = resolve;
  });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    const record: ReceivedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.alloc(0),
    };
    received.push(record);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/api/v1/public/never') return; // holds the socket, answers nothing
    req.on('data', (chunk: Buffer) => {
      if (chunks.length === 0 && req.method === 'PUT') firstChunk(chunk);
      chunks.push(chunk);
    });
    await new Promise((resolve) => req.on('end', resolve));
    record.body = Buffer.concat(chunks);
    answer(path, record, res, held);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    release: () => releaseHeld(),
    firstUploadChunk,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  path: string,
  request: ReceivedRequest,
  res: http.ServerResponse,
  held: Promise<void>,
): Promise<void> {
  const status = /^\/api\/v1\/public\/status\/(\d{3})$/.exec(path);
  if (status) {
    const code = Number(status[1]);
    const body = code === 204 || code === 304 ? '' : JSON.stringify({ status: code });
    res.writeHead(code, { 'content-type': 'application/json', 'retry-after': '7', etag: '"v1"' });
    res.end(body);
    return;
  }
  switch (path) {
    case '/api/v1/public/json':
      res.writeHead(200, [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Cache-Control', 'public, max-age=60'],
        ['X-Custom', 'kept'],
        ['Set-Cookie', 'a=1; Path=/; HttpOnly'],
        ['Set-Cookie', 'b=2; Path=/; Secure'],
        ['Connection', 'x-upstream-hop'],
        ['X-Upstream-Hop', 'dropped'],
        ['Keep-Alive', 'timeout=99, max=7'],
        ['Proxy-Authenticate', 'Basic realm="portal"'],
        ['Upgrade', 'h2c'],
        ['Trailer', 'x-checksum'],
        ['X-Request-Id', 'portal-chose-another-id'],
      ]);
      res.end(JSON.stringify({ data: [{ code: 'business', name: 'Business' }] }));
      return;
    case '/api/v1/public/binary':
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': BINARY.length,
      });
      res.end(BINARY);
      return;
    case '/api/v1/public/gzip':
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': GZIPPED.length,
        vary: 'Accept-Encoding',
      });
      res.end(GZIPPED);
      return;
    case '/api/v1/public/chunked':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk;');
      await held;
      res.write('second chunk;');
      res.end('last chunk');
      return;
    case '/api/v1/public/echo':
      res.writeHead(201, {
        'content-type': request.headers['content-type'] ?? 'application/octet-stream',
      });
      res.end(request.body);
      return;
    case '/api/v1/public/slow':
      await new Promise((resolve) => setTimeout(resolve, 100));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"slow":true}');
      return;
    default:
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'introuvable', params: {}, message: 'portal: no route' }));
  }
}
