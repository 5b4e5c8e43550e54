import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const SDK_INDEX = path.resolve(import.meta.dirname, '../../../packages/sdk/src/index.ts');
const BENCH_DIR = path.resolve(import.meta.dirname, '../..');

/** What an integrator's entry imports; esbuild keeps exactly what it exports. */
export const ENTRIES = {
  'sdk: everything': `export { createClient, cookieSession, eq, neq, gt, gte, lt, lte, like, ilike, in_, is, order, verifyWebhookSignature } from ${JSON.stringify(SDK_INDEX)};`,
  'sdk: createClient + cookieSession + filters (the console)': `export { createClient, cookieSession, eq, neq, gt, gte, lt, lte, like, ilike, in_, is, order } from ${JSON.stringify(SDK_INDEX)};`,
  'sdk: createClient + filters': `export { createClient, eq, neq, gt, gte, lt, lte, like, ilike, in_, is, order } from ${JSON.stringify(SDK_INDEX)};`,
  'sdk: verifyWebhookSignature': `export { verifyWebhookSignature } from ${JSON.stringify(SDK_INDEX)};`,
  'openapi-fetch 0.17: createClient': `export { default as createClient } from 'openapi-fetch';`,
} as const;

export interface BundleSize {
  entry: string;
  minifiedBytes: number;
  gzipBytes: number;
}

/** Bundles, minifies (esbuild, browser ES2022, tree-shaken) and gzips (level 9) one entry. */
export async function bundleSize(entry: keyof typeof ENTRIES): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: ENTRIES[entry], resolveDir: BENCH_DIR, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { entry, minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}
