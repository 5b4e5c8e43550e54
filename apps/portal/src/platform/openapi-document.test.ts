import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { API_DOCUMENTS, openApiText, splitOpenApiDocument } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { negotiateEncoding } from '../http/static-document';

/** GET /api/v1/openapi.json is the committed document, byte for byte, from source and built. */
const PORTAL_DIR = path.resolve(import.meta.dirname, '../..');
const committed = readFileSync(path.resolve(PORTAL_DIR, '../../packages/contract/openapi.json'));
const URL_PATH = '/api/v1/openapi.json';

/** Byte equality with a short message: a 1.2 MB diff helps nobody. */
function expectCommittedBytes(body: Uint8Array, what: string) {
  const bytes = Buffer.from(body);
  expect(
    bytes.equals(committed),
    `${what}: ${bytes.length} bytes, committed openapi.json has ${committed.length}`,
  ).toBe(true);
}

describe('the OpenAPI document from source (buildApp)', () => {
  let portal: Awaited<ReturnType<typeof createTestPortal>>;
  beforeAll(async () => {
    portal = await createTestPortal();
  });
  afterAll(() => portal.tdb.close());

  it('is the committed openapi.json byte for byte, with a strong ETag and a cache lifetime', async () => {
    const res = await portal.request(URL_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expectCommittedBytes(new Uint8Array(await res.arrayBuffer()), 'identity');
  });

  it('answers brotli and gzip bodies that decode to the same bytes, each with its own ETag', async () => {
    const br = await portal.request(URL_PATH, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBody = Buffer.from(await br.arrayBuffer());
    expectCommittedBytes(brotliDecompressSync(brBody), 'br');
    expect(brBody.length).toBeLessThan(committed.length / 20);

    const gz = await portal.request(URL_PATH, {
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0.5' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expectCommittedBytes(gunzipSync(Buffer.from(await gz.arrayBuffer())), 'gzip');

    const identity = await portal.request(URL_PATH);
    const tags = [br, gz, identity].map((r) => r.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);
  });

  it('answers 304 without a body to a matching If-None-Match, 200 to another', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const first = await portal.request(URL_PATH, { headers: { 'accept-encoding': encoding } });
      const etag = first.headers.get('etag') ?? '';
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await portal.request(URL_PATH, {
          headers: { 'accept-encoding': encoding, 'if-none-match': ifNoneMatch },
        });
        expect(again.status, `${encoding} ${ifNoneMatch}`).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe('public, max-age=300');
        expect(await again.text()).toBe('');
      }
      const stale = await portal.request(URL_PATH, {
        headers: { 'accept-encoding': encoding, 'if-none-match': '"stale"' },
      });
      expect(stale.status).toBe(200);
    }
  });

  it('serves each part, cut from the same document, compressed on request', async () => {
    const whole = JSON.parse(committed.toString('utf8'));
    for (const name of API_DOCUMENTS) {
      const res = await portal.request(`/api/v1/openapi/${name}.json`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
      expect(res.headers.get('content-encoding')).toBe('br');
      const text = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
      expect(text === openApiText(splitOpenApiDocument(whole, name)), name).toBe(true);
    }
    // Asked again (its bytes were handed over to the first answer): the same ETag, 304.
    const again = await portal.request('/api/v1/openapi/sales.json');
    const etag = again.headers.get('etag') ?? '';
    const cached = await portal.request('/api/v1/openapi/sales.json', {
      headers: { 'if-none-match': etag },
    });
    expect(cached.status).toBe(304);
  });

  it('refuses a part that does not exist', async () => {
    const res = await portal.request('/api/v1/openapi/payroll.json');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'requete_invalide' });
  });

  it('negotiates Accept-Encoding by q-value, br on a tie, identity when nothing else is acceptable', () => {
    expect(
      [
        undefined,
        '',
        'gzip',
        'br',
        'gzip, deflate, br',
        'br;q=0.5, gzip',
        'br;q=0, gzip;q=0',
        '*',
        '*;q=0.2, gzip;q=0.1',
        'deflate',
        'BR;Q=0.9',
        'identity',
      ].map(negotiateEncoding),
    ).toEqual([
      'identity',
      'identity',
      'gzip',
      'br',
      'br',
      'gzip',
      'identity',
      'br',
      'br',
      'identity',
      'br',
      'identity',
    ]);
  });
});

describe('the OpenAPI document from the built portal (tsup, node dist/main.js)', () => {
  let outDir: string;
  let tdb: TestDatabase;
  let child: ChildProcess | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    // Inside the app, so the bundle resolves its external npm packages as dist/ does.
    outDir = await mkdtemp(path.join(PORTAL_DIR, 'node_modules/.cache-openapi-build-'));
    await promisify(execFile)('pnpm', ['exec', 'tsup', '--out-dir', outDir], { cwd: PORTAL_DIR });
    tdb = await createTestDatabase();
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    await tdb?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('serves the committed openapi.json byte for byte', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: tdb.url,
        PORTAL_HOST: '127.0.0.1',
        PORTAL_PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(`${base}/api/v1/health`, child, output);

    const res = await fetch(`${base}${URL_PATH}`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expectCommittedBytes(new Uint8Array(await res.arrayBuffer()), 'built portal');
    const br = await fetch(`${base}${URL_PATH}`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    // fetch decodes the body it was sent compressed.
    expectCommittedBytes(new Uint8Array(await br.arrayBuffer()), 'built portal, br');
  }, 30_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url: string, child: ChildProcess, output: string[]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`portal exited ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`portal not healthy:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
