import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@erp/logger';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxyCache } from '../src/proxy/cache';
import { type RawResponse, send, startTestLandingServer } from './servers';

const BIG = randomBytes(300 * 1024);
const BINARY = randomBytes(5_000);

/**
 * A portal stand-in for the cache: it counts the requests per path, numbers its answers (so a
 * response the cache did not store differs from the previous one) and can hold an answer until
 * released.
 */
async function startCountingPortal() {
  const counts = new Map<string, number>();
  const held: Array<() => void> = [];
  const aborted: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const path = url.split('?')[0] ?? '';
    const n = (counts.get(url) ?? 0) + 1;
    counts.set(url, n);
    req.resume();
    res.on('close', () => {
      if (!res.writableFinished) aborted.push(url);
    });
    const json = (headers: Record<string, string | string[]>, status = 200) => {
      const body = JSON.stringify({ n, path, encoding: req.headers['accept-encoding'] ?? null });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    const publicMinute = { 'cache-control': 'public, max-age=60' };
    switch (path) {
      case '/api/v1/public/cached':
        return json(publicMinute);
      case '/api/v1/public/binary':
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'cache-control': 'public, max-age=60',
          'content-length': BINARY.length,
          etag: `"${n}"`,
        });
        return res.end(BINARY);
      case '/api/v1/public/s-maxage':
        return json({ 'cache-control': 'public, max-age=600, s-maxage=5' });
      case '/api/v1/public/aged':
        return json({ ...publicMinute, age: '50' });
      case '/api/v1/public/private':
        return json({ 'cache-control': 'private, max-age=60' });
      case '/api/v1/public/no-store':
        return json({ 'cache-control': 'public, max-age=60, no-store' });
      case '/api/v1/public/no-cache':
        return json({ 'cache-control': 'public, max-age=60, no-cache' });
      case '/api/v1/public/not-public':
        return json({ 'cache-control': 'max-age=60' });
      case '/api/v1/public/zero':
        return json({ 'cache-control': 'public, max-age=0' });
      case '/api/v1/public/cookie':
        return json({ ...publicMinute, 'set-cookie': 'seen=1; Path=/' });
      case '/api/v1/public/missing':
        return json(publicMinute, 404);
      case '/api/v1/public/vary-star':
        return json({ ...publicMinute, vary: '*' });
      case '/api/v1/public/vary-language':
        return json({ ...publicMinute, vary: 'Accept-Encoding, Accept-Language' });
      case '/api/v1/public/vary-encoding':
        return json({ ...publicMinute, vary: 'Accept-Encoding' });
      case '/api/v1/public/big':
        // Chunked: nothing tells the proxy the size before the bytes pass.
        res.writeHead(200, { 'content-type': 'application/octet-stream', ...publicMinute });
        res.write(BIG.subarray(0, 100_000));
        setTimeout(() => res.end(BIG.subarray(100_000)), 20);
        return;
      case '/api/v1/public/big-declared':
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': BIG.length,
          ...publicMinute,
        });
        return res.end(BIG);
      case '/api/v1/public/held':
        held.push(() => json(publicMinute));
        return;
      default:
        return json({}, 404);
    }
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Requests the portal received for this exact path and query. */
    count: (target: string) => counts.get(target) ?? 0,
    aborted,
    heldCount: () => held.length,
    releaseAll: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let portal: Awaited<ReturnType<typeof startCountingPortal>>;
let landing: Awaited<ReturnType<typeof startTestLandingServer>>;
const logged: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
beforeAll(async () => {
  portal = await startCountingPortal();
  landing = await startTestLandingServer({ PORTAL_URL: portal.url });
  const record =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      logged.push({ level, message, fields });
    };
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
  landing.deps.logger = logger;
});
afterAll(async () => {
  await landing?.close();
  await portal?.close();
});
beforeEach(() => {
  landing.clock.offsetMs = 0;
});

let unique = 0;
/** A target no other test has used: every test starts with an empty entry. */
const fresh = (path: string) => `/api/v1/public/${path}?t=${++unique}`;
const get = (path: string, headers: http.OutgoingHttpHeaders = {}, port = landing.port) =>
  send(port, { path, headers });
const counter = (response: RawResponse) =>
  (JSON.parse(response.body.toString()) as { n: number }).n;
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
};

describe('public proxy cache: what it stores and serves', () => {
  it('serves a hit without contacting the portal: same status, headers and bytes, an Age, its own request id', async () => {
    const path = fresh('binary');
    const first = await get(path);
    landing.clock.offsetMs = 5_000;
    const second = await get(path);
    const head = await send(landing.port, { method: 'HEAD', path });
    expect(portal.count(path)).toBe(1);
    expect(second.status).toBe(200);
    expect(second.body.equals(BINARY)).toBe(true);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.headers.age).toBeUndefined();
    expect(second.headers.age).toBe('5');
    for (const name of ['content-type', 'content-length', 'cache-control', 'etag'])
      expect(second.headers[name], name).toBe(first.headers[name]);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    // HEAD is answered from the GET's entry.
    expect([head.status, head.body.length, head.headers.etag, head.headers.age]).toEqual([
      200,
      0,
      first.headers.etag,
      '5',
    ]);
    expect(head.headers['content-length']).toBe(String(BINARY.length));
  });

  it('refetches once the entry is stale (max-age), and s-maxage wins over max-age', async () => {
    const path = fresh('cached');
    expect(counter(await get(path))).toBe(1);
    landing.clock.offsetMs = 59_000;
    expect(counter(await get(path))).toBe(1);
    landing.clock.offsetMs = 60_000;
    const refetched = await get(path);
    expect([counter(refetched), refetched.headers.age]).toEqual([2, undefined]);
    expect(counter(await get(path))).toBe(2);

    const shared = fresh('s-maxage');
    landing.clock.offsetMs = 0;
    await get(shared);
    landing.clock.offsetMs = 4_000;
    expect(counter(await get(shared))).toBe(1);
    landing.clock.offsetMs = 5_000;
    expect(counter(await get(shared))).toBe(2);
  });

  it("counts the portal's own Age: Age 50 of 60 leaves 10 s", async () => {
    const path = fresh('aged');
    await get(path);
    landing.clock.offsetMs = 9_000;
    const hit = await get(path);
    expect([counter(hit), hit.headers.age]).toEqual([1, '59']);
    landing.clock.offsetMs = 10_000;
    expect(counter(await get(path))).toBe(2);
  });

  it.each([
    'private',
    'no-store',
    'no-cache',
    'not-public',
    'zero',
    'cookie',
    'missing',
    'vary-star',
    'vary-language',
  ])('never stores %s', async (name) => {
    const path = fresh(name);
    const first = await get(path);
    const second = await get(path);
    expect([counter(first), counter(second)]).toEqual([1, 2]);
    expect(second.headers.age).toBeUndefined();
    expect(portal.count(path)).toBe(2);
    if (name === 'cookie') expect(second.headers['set-cookie']).toEqual(['seen=1; Path=/']);
  });

  it('stores one answer per Accept-Encoding when the portal varies on it', async () => {
    const path = fresh('vary-encoding');
    const gzip = { 'accept-encoding': 'gzip' };
    expect(counter(await get(path, gzip))).toBe(1);
    expect(counter(await get(path))).toBe(2);
    const gzipHit = await get(path, gzip);
    const plainHit = await get(path);
    expect(JSON.parse(gzipHit.body.toString())).toMatchObject({ n: 1, encoding: 'gzip' });
    expect(JSON.parse(plainHit.body.toString())).toMatchObject({ n: 2, encoding: null });
    expect(portal.count(path)).toBe(2);
  });

  it('streams a body over 256 KiB intact to every client without storing it', async () => {
    for (const name of ['big', 'big-declared']) {
      const path = fresh(name);
      const first = await get(path);
      const second = await get(path);
      expect(first.body.equals(BIG), name).toBe(true);
      expect(second.body.equals(BIG), name).toBe(true);
      expect(second.headers.age).toBeUndefined();
      expect(portal.count(path)).toBe(2);
    }
  });
});

describe('public proxy cache: what the request allows', () => {
  it('bypasses the cache for a request with Authorization or Cookie (neither served nor stored)', async () => {
    const path = fresh('cached');
    await get(path);
    const withAuth = await get(path, { authorization: 'Bearer x' });
    const withCookie = await get(path, { cookie: 'session=1' });
    expect([counter(withAuth), counter(withCookie)]).toEqual([2, 3]);
    // The entry is still the first answer: credentialed answers were not stored.
    expect(counter(await get(path))).toBe(1);
    expect(portal.count(path)).toBe(3);

    const empty = fresh('cached');
    await get(empty, { authorization: 'Bearer x' });
    expect(counter(await get(empty))).toBe(2);
  });

  it('goes to the portal for Cache-Control: no-cache or Pragma: no-cache and refreshes the entry; no-store stores nothing', async () => {
    const path = fresh('cached');
    await get(path);
    expect(counter(await get(path))).toBe(1);
    expect(counter(await get(path, { 'cache-control': 'no-cache' }))).toBe(2);
    expect(counter(await get(path))).toBe(2);
    expect(counter(await get(path, { pragma: 'no-cache' }))).toBe(3);
    expect(counter(await get(path))).toBe(3);
    expect(counter(await get(path, { 'cache-control': 'no-store' }))).toBe(4);
    expect(counter(await get(path))).toBe(3);
    expect(portal.count(path)).toBe(4);
  });

  it('answers HEAD without an entry from the portal, and does not store it', async () => {
    const path = fresh('cached');
    const head = await send(landing.port, { method: 'HEAD', path });
    expect([head.status, head.body.length]).toEqual([200, 0]);
    expect(counter(await get(path))).toBe(2);
  });
});

describe('public proxy cache: concurrent misses', () => {
  it('sends 10 concurrent misses to the portal once, and all get the same bytes', async () => {
    const path = fresh('held');
    const responses = Array.from({ length: 10 }, () => get(path));
    await until(() => portal.heldCount() === 1);
    await new Promise((r) => setTimeout(r, 100)); // the other nine reach landing and wait
    portal.releaseAll();
    const answered = await Promise.all(responses);
    expect(portal.count(path)).toBe(1);
    for (const response of answered) {
      expect(response.status).toBe(200);
      expect(response.body.equals(answered[0]!.body)).toBe(true);
    }
    expect(new Set(answered.map((r) => r.headers['x-request-id'])).size).toBe(10);
  });

  it('still answers the waiting clients when the first one hangs up', async () => {
    const path = fresh('held');
    const first = http.get({ host: '127.0.0.1', port: landing.port, path, agent: false });
    first.on('error', () => {});
    await until(() => portal.heldCount() === 1);
    const others = Array.from({ length: 3 }, () => get(path));
    await new Promise((r) => setTimeout(r, 100));
    first.destroy();
    await new Promise((r) => setTimeout(r, 50));
    portal.releaseAll();
    const answered = await Promise.all(others);
    expect(answered.map((r) => [r.status, counter(r)])).toEqual([
      [200, 1],
      [200, 1],
      [200, 1],
    ]);
    expect(portal.count(path)).toBe(1);
    expect(portal.aborted).not.toContain(path);
    expect(counter(await get(path))).toBe(1); // stored too
  });
});

describe('public proxy: a client that hangs up', () => {
  it('aborts the portal request and is logged at debug, not as a 502 portal failure', async () => {
    const before = logged.length;
    const path = fresh('held');
    const client = http.get({ host: '127.0.0.1', port: landing.port, path, agent: false });
    client.on('error', () => {});
    await until(() => portal.heldCount() === 1);
    client.destroy();
    await until(() => portal.aborted.includes(path));
    await until(() => logged.length > before);
    expect(logged.slice(before)).toEqual([
      {
        level: 'debug',
        message: 'client left before the portal answered',
        fields: expect.objectContaining({ path: '/api/v1/public/held', reason: 'UND_ERR_ABORTED' }),
      },
    ]);
    portal.releaseAll();
  });

  it('the same without the cache (a POST)', async () => {
    const before = logged.length;
    const path = fresh('held');
    const client = http.request({
      host: '127.0.0.1',
      port: landing.port,
      path,
      method: 'POST',
      agent: false,
    });
    client.on('error', () => {});
    client.end('{}');
    await until(() => portal.heldCount() === 1);
    client.destroy();
    await until(() => logged.length > before);
    expect(logged.slice(before).map((l) => [l.level, l.message])).toEqual([
      ['debug', 'client left before the portal answered'],
    ]);
    portal.releaseAll();
  });
});

describe('public proxy cache: bounded', () => {
  it('is off with PROXY_CACHE_MAX_BYTES=0', async () => {
    const off = await startTestLandingServer({
      PORTAL_URL: portal.url,
      PROXY_CACHE_MAX_BYTES: '0',
    });
    try {
      const path = fresh('cached');
      const first = await get(path, {}, off.port);
      const second = await get(path, {}, off.port);
      expect([counter(first), counter(second)]).toEqual([1, 2]);
      expect(second.headers.age).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it('evicts the oldest entries beyond its budget and never stores an entry larger than it', () => {
    let now = 0;
    const cache = new ProxyCache(3_000, () => now);
    const storability = { lifetimeSeconds: 60, initialAgeSeconds: 0, variesOnEncoding: false };
    const put = (target: string, bytes: number) =>
      cache.store(
        target,
        '',
        { status: 200, headers: ['content-type', 'text/plain'], storedAt: now },
        storability,
        Buffer.alloc(bytes),
      );
    put('/a', 900);
    put('/b', 900);
    put('/c', 900);
    expect(cache.size).toBeLessThanOrEqual(3_000);
    expect(cache.lookup('/a', '')).toBeDefined();
    put('/d', 900); // /a is the oldest
    expect(cache.size).toBeLessThanOrEqual(3_000);
    expect(['/a', '/b', '/c', '/d'].map((t) => Boolean(cache.lookup(t, '')))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(put('/huge', 3_000)).toBeUndefined();
    expect(cache.lookup('/b', '')).toBeDefined();
    now = 60_000;
    expect(cache.lookup('/b', '')).toBeUndefined();
  });
});
