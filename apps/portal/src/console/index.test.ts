import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveApp } from '@erp/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { generateSigningKeys } from '../auth';

const INDEX =
  '<!doctype html><html lang="en"><head><script type="module" src="/assets/app-3f2a.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("console");';
const SECRET = 'secret-outside-the-build';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

let root: string;
let dist: string;
let portal: Awaited<ReturnType<typeof createTestPortal>>;

/** A console build in `dir` (index.html, a hashed asset, a root file), beside a file it must hide. */
async function writeBuild(dir: string, index = INDEX) {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), index);
  await writeFile(path.join(dir, 'assets', 'app-3f2a.js'), SCRIPT);
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'portal-console-'));
  dist = path.join(root, 'dist');
  await writeBuild(dist);
  await writeFile(path.join(root, 'package.json'), JSON.stringify({ secret: SECRET }));
  await writeFile(path.join(dist, '.env'), SECRET);
  // A link inside the build to a file outside it: never followed.
  await symlink(path.join(root, 'package.json'), path.join(dist, 'assets', 'leak.js'));
  portal = await createTestPortal({ CONSOLE_DIR: dist });
});
afterAll(async () => {
  await portal?.tdb.close();
  await rm(root, { recursive: true, force: true });
});

const get = (target: { request: typeof portal.request }, url: string, headers = HTML) =>
  target.request(url, { headers });

async function expectJsonError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({
    code,
    params: expect.any(Object),
    message: expect.any(String),
  });
}

describe('the console at /', () => {
  it('answers every client-side route with index.html, the CSP and no-cache', async () => {
    for (const url of [
      '/',
      '/login',
      '/settings/api-keys',
      '/records/sales-orders/0b6f4c52/edit',
    ]) {
      const res = await get(portal, url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves hashed assets as immutable, other files of the build revalidated', async () => {
    const asset = await get(portal, '/assets/app-3f2a.js', { accept: '*/*' });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe(SCRIPT);
    const icon = await get(portal, '/favicon.svg', { accept: 'image/*' });
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await portal.request('/settings/users', { method: 'HEAD', headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('404s a missing asset, and a path asked for as something other than HTML', async () => {
    await expectJsonError(await get(portal, '/assets/gone-1234.js', HTML), 404, 'introuvable');
    await expectJsonError(
      await get(portal, '/settings', { accept: 'application/json' }),
      404,
      'introuvable',
    );
  });

  it('leaves /api/* to the API: unknown routes stay JSON 404s, without the page headers', async () => {
    for (const url of ['/api', '/api/', '/api/unknown', '/api/v1/nope', '/api/v1/auth/login']) {
      const res = await get(portal, url);
      await expectJsonError(res, 404, 'introuvable');
      expect(res.headers.get('content-security-policy')).toBeNull();
    }
    expect((await get(portal, '/api/v1/health')).status).toBe(200);
    await expectJsonError(await portal.request('/', { method: 'POST' }), 404, 'introuvable');
  });

  it('never serves a file outside the build, a dotfile or a symbolic link', async () => {
    const server = await serveApp({ fetch: portal.app.fetch, port: 0, host: '127.0.0.1' });
    try {
      const attempts = [
        '/assets/../../package.json',
        '/assets/..%2f..%2fpackage.json',
        '/assets/%2e%2e/%2e%2e/package.json',
        '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
        '/assets/..%5c..%5cpackage.json',
        '/..%2fpackage.json',
        '/%2e%2e/package.json',
        '//package.json',
        '/assets/leak.js',
        '/.env',
        '/assets/%2e%2e/.env',
      ];
      for (const target of attempts) {
        const reply = await rawGet(server.port, target);
        expect(reply, target).not.toContain(SECRET);
        // Either refused, or the console's page for a client-side route: never anything else.
        const status = Number(reply.split(' ')[1]);
        expect([200, 400, 404], target).toContain(status);
        if (status === 200) expect(reply.endsWith(INDEX), target).toBe(true);
      }
    } finally {
      await server.close();
    }
  });

  it('reads the build from disk on each request outside production', async () => {
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>rebuilt</title>');
    try {
      expect(await (await get(portal, '/records')).text()).toContain('rebuilt');
    } finally {
      await writeFile(path.join(dist, 'index.html'), INDEX);
    }
  });

  it('without a build: 503 console_indisponible, the API unaffected, and a later build is found', async () => {
    const missing = path.join(root, 'not-built');
    const bare = await createTestPortal({ CONSOLE_DIR: missing }, portal.tdb);
    const res = await get(bare, '/settings/api-keys');
    await expectJsonError(res.clone(), 503, 'console_indisponible');
    expect(((await res.json()) as { message: string }).message).toContain(
      'pnpm --filter @erp/console build',
    );
    expect((await get(bare, '/api/v1/health')).status).toBe(200);
    await writeBuild(missing);
    expect((await get(bare, '/')).status).toBe(200);
  });
});

describe('in production', () => {
  let prod: Awaited<ReturnType<typeof createTestPortal>>;
  let prodDist: string;
  beforeAll(async () => {
    prodDist = path.join(root, 'prod');
    await writeBuild(prodDist);
    const keys = await generateSigningKeys();
    prod = await createTestPortal(
      {
        NODE_ENV: 'production',
        CONSOLE_DIR: prodDist,
        JWT_PRIVATE_KEY: keys.privateKey,
        JWT_PUBLIC_KEY: keys.publicKey,
        API_KEY_HASH_SECRET: 'production-test-api-key-hash-secret-0123',
      },
      portal.tdb,
    );
  });

  it('keeps each file in memory from its first use', async () => {
    expect(await (await get(prod, '/')).text()).toBe(INDEX);
    await writeFile(path.join(prodDist, 'index.html'), 'changed on disk');
    expect(await (await get(prod, '/settings')).text()).toBe(INDEX);
  });

  it('gives index.html an ETag and answers 304 to it; compresses text', async () => {
    const first = await get(prod, '/settings/webhooks');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await prod.request('/settings/webhooks', {
      headers: { ...HTML, 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toContain("default-src 'none'");
    const brotli = await prod.request('/assets/app-3f2a.js', {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

/** A GET with the target exactly as written (fetch would normalise `..` and `%2e`). */
function rawGet(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/html\r\nConnection: close\r\n\r\n`,
    );
  });
}
