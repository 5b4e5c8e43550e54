/**
 * `pnpm bench startup`: the built portal (tsup's dist, as in its image) with the real catalogue,
 * then with a doubled one, each started fresh ROUNDS times: time to the first answered health
 * check, RSS after start, the first GET /api/v1/openapi.json (time, size, gzip and brotli
 * sizes) and RSS after it. Medians, and the growth per added resource. STARTUP_DIST: see
 * `bundles`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogue, openApiText, type Resource } from '@erp/contract';
import { buildOpenApiDocument } from '@erp/contract/openapi';
import { findFreePort } from '@erp/db/embedded';
import { build } from 'tsup';
import portalBuild from '../../apps/portal/tsup.config';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type BenchDatabase, startDatabase } from './lib/database';
import { median } from './lib/stats';
import { doubledCatalogue } from './startup/doubled-catalogue';

const PORTAL_DIR = path.resolve(import.meta.dirname, '../../apps/portal');
const ROUNDS = envInt('ROUNDS', 3);
let db: BenchDatabase | undefined;
const cleanups: (() => Promise<unknown>)[] = [];

interface Sample {
  startMs: number;
  rssAfterStartMb: number;
  firstDocumentMs: number;
  documentBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  rssAfterDocumentMb: number;
}

async function main(): Promise<void> {
  db = await startDatabase('bench_startup', true);
  const doubled = doubledCatalogue();
  const outDir = await bundles(doubled);

  const variants = [
    { name: 'real catalogue', entry: 'main.js', resources: catalogue.length },
    { name: 'doubled catalogue', entry: 'doubled.js', resources: doubled.length },
  ];
  const results: Record<string, Sample & { resources: number; operations: number }> = {};
  for (const variant of variants) {
    const samples: Sample[] = [];
    let operations = 0;
    for (let round = 0; round < ROUNDS; round++) {
      log(`${variant.name}: round ${round + 1}/${ROUNDS}`);
      const { sample, document } = await measure(
        path.join(outDir, variant.entry),
        path.join(outDir, 'doubled-openapi.json'),
      );
      samples.push(sample);
      operations = countOperations(document);
    }
    results[variant.name] = {
      resources: variant.resources,
      operations,
      ...(Object.fromEntries(
        Object.keys(samples[0]!).map((k) => [k, median(samples.map((s) => s[k as keyof Sample]))]),
      ) as unknown as Sample),
    };
  }
  report(results);
  await writeResults('startup', results);
}

/**
 * The two bundles and the doubled document: built in a temporary folder, or, with STARTUP_DIST,
 * the folder's own if it holds them (an earlier commit's build, measured again), else built there
 * and kept.
 */
async function bundles(doubled: Resource[]): Promise<string> {
  const kept = process.env.STARTUP_DIST && path.resolve(process.env.STARTUP_DIST);
  if (kept && existsSync(path.join(kept, 'main.js'))) {
    log(`measuring the bundles in ${kept}`);
    return kept;
  }
  const outDir =
    kept || (await mkdtemp(path.join(PORTAL_DIR, 'node_modules/.cache-bench-startup-')));
  if (!kept) cleanups.push(() => rm(outDir, { recursive: true, force: true }));
  log('building the portal and its doubled twin with tsup…');
  const config = portalBuild as Parameters<typeof build>[0];
  await build({
    ...config,
    entry: {
      main: path.join(PORTAL_DIR, 'src/main.ts'),
      doubled: path.join(import.meta.dirname, 'startup/doubled-main.ts'),
    },
    outDir,
    clean: false,
    silent: true,
    // The portal's onSuccess copies the console, Scalar and the e-invoicing rules beside its own
    // dist (paths relative to its folder): start-up and the document need none of them.
    onSuccess: undefined,
  });
  await writeFile(
    path.join(outDir, 'doubled-openapi.json'),
    openApiText(buildOpenApiDocument(doubled)),
  );
  return outDir;
}

async function measure(entry: string, documentFile: string) {
  const port = await findFreePort();
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd: PORTAL_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: db!.url,
      PORTAL_PORT: String(port),
      PORTAL_HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      OPENAPI_FILE: documentFile,
      ...productionSecrets(),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, child);
    const startMs = performance.now() - started;
    const rssAfterStartMb = await rssMb(child.pid!);
    const t = performance.now();
    const response = await fetch(`${base}/api/v1/openapi.json`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const text = await response.text();
    const firstDocumentMs = performance.now() - t;
    const gzipBytes = await encodedBytes(`${base}/api/v1/openapi.json`, 'gzip');
    const brotliBytes = await encodedBytes(`${base}/api/v1/openapi.json`, 'br');
    const rssAfterDocumentMb = await rssMb(child.pid!);
    return {
      sample: {
        startMs,
        rssAfterStartMb,
        firstDocumentMs,
        documentBytes: Buffer.byteLength(text),
        gzipBytes,
        brotliBytes,
        rssAfterDocumentMb,
      },
      document: JSON.parse(text) as { paths: Record<string, Record<string, unknown>> },
    };
  } finally {
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    await gone;
  }
}

/** Production refuses to start without its secrets: throw-away ones. */
function productionSecrets(): Record<string, string> {
  const { privateKey, publicKey } = generateKeys();
  return {
    JWT_PRIVATE_KEY: privateKey,
    JWT_PUBLIC_KEY: publicKey,
    API_KEY_HASH_SECRET: 'b'.repeat(40),
    SECRETS_ENCRYPTION_KEY: 'c'.repeat(40),
    SAAS_INTERNAL_API_KEY: 'd'.repeat(40),
  };
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the portal exited during start-up');
    const ok = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the portal did not answer within 60 s');
}

async function encodedBytes(url: string, encoding: 'gzip' | 'br'): Promise<number> {
  const { request } = await import('undici');
  const response = await request(url, { headers: { 'accept-encoding': encoding } });
  const body = Buffer.from(await response.body.arrayBuffer());
  if (response.headers['content-encoding'] !== encoding)
    throw new Error(`${encoding} not served: ${String(response.headers['content-encoding'])}`);
  return body.length;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Business operations: every operation outside auth, settings, internal and public. */
function countOperations(document: { paths: Record<string, Record<string, unknown>> }): number {
  return Object.entries(document.paths)
    .filter(([p]) => !/^\/api\/v1\/(auth|settings|internal|public|me|health|ready|openapi)/.test(p))
    .reduce((n, [, item]) => n + Object.keys(item).length, 0);
}

function generateKeys(): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('ed25519');
  return {
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

function report(results: Record<string, Sample & { resources: number; operations: number }>) {
  const rows = Object.entries(results);
  const fmt = (n: number, d = 0) => n.toFixed(d);
  const lines = [
    `\nstartup of the built portal (dist, NODE_ENV=production), medians of ${ROUNDS} starts`,
    '| catalogue | resources | business operations | start ms | RSS after start MB | first openapi.json ms | RSS after it MB | document | gzip | brotli |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, r]) =>
        `| ${name} | ${r.resources} | ${r.operations} | ${fmt(r.startMs)} | ${fmt(r.rssAfterStartMb, 1)} | ${fmt(r.firstDocumentMs)} | ${fmt(r.rssAfterDocumentMb, 1)} | ${fmt(r.documentBytes / 1024)} KiB | ${fmt(r.gzipBytes / 1024)} KiB | ${fmt(r.brotliBytes / 1024)} KiB |`,
    ),
  ];
  const [real, twice] = rows.map(([, r]) => r) as [(typeof rows)[0][1], (typeof rows)[0][1]];
  const added = twice.resources - real.resources;
  lines.push(
    `\nper added resource: start +${fmt((twice.startMs - real.startMs) / added, 2)} ms, RSS after start +${fmt(((twice.rssAfterStartMb - real.rssAfterStartMb) * 1024) / added)} KiB, after openapi.json +${fmt(((twice.rssAfterDocumentMb - real.rssAfterDocumentMb) * 1024) / added)} KiB, document +${fmt((twice.documentBytes - real.documentBytes) / added / 1024, 1)} KiB`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBench('startup', main, async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
  await db?.stop();
});
