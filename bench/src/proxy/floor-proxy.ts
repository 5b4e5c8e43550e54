import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

/**
 * The floor of a Node proxy: `node:http` + one undici Pool and `pool.request`, nothing else
 * (no framework, no path checks, no timeouts beyond undici's, no logging). Started by
 * `startFloorProxy` with FLOOR_PORT and FLOOR_UPSTREAM; answers `/health` itself.
 */
const upstream = process.env.FLOOR_UPSTREAM!;
const pool = new Pool(upstream, { connections: 64, keepAliveTimeout: 4_000 });
// Hop-by-hop headers (RFC 9110 §7.6.1) are not forwarded either way.
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

const server = http.createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP.has(name)) headers[name] = value;
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  pool
    .request({
      method: req.method as 'GET',
      path: req.url!,
      headers,
      body: hasBody ? req : null,
    })
    .then(async (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP.has(name)) out[name] = value;
      }
      res.writeHead(answer.statusCode, out);
      await pipeline(answer.body, res);
    })
    .catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
});
