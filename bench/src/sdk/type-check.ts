import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const HERE = import.meta.dirname;
const BENCH_DIR = path.resolve(HERE, '../..');
/** The sdk folder an integrator copies; `BENCH_SDK_SRC` measures another (an older commit's). */
const SDK_SRC = process.env.BENCH_SDK_SRC ?? path.resolve(BENCH_DIR, '../packages/sdk/src');
const requireHere = createRequire(import.meta.url);
const TSC = requireHere.resolve('typescript/bin/tsc');

/**
 * An integrator's project: strict, NodeNext, the DOM library, `skipLibCheck` as `tsc --init`
 * writes it (declaration files, ours and Stripe's, are read, not checked), no `@types` unless a
 * package references them itself (Stripe references Node's).
 */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  },
  files: ['consumer.ts'],
};

/** The consumers compared, each a project of its own. */
export const CONSUMERS = ['sdk: sales entry', 'sdk: whole entry (index)', 'stripe'] as const;
export type Consumer = (typeof CONSUMERS)[number];

export interface TypeCheck {
  /** Wall time of the tsc process, start to exit, in seconds. */
  wallSeconds: number;
  /** tsc's own figures (`--extendedDiagnostics`). */
  totalSeconds: number;
  checkSeconds: number;
  instantiations: number;
  /** The heap tsc reports using at the end (`Memory used`), in MB. */
  heapMb: number;
  /** The process's maximum resident set size, in MB. */
  maxRssMb: number;
}

/** Writes the three projects into a temporary directory; `cleanup` removes it. */
export async function prepareConsumers(): Promise<{
  dirs: Record<Consumer, string>;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), 'sdk-typecheck-'));
  const sdkFile = await readFile(path.join(HERE, 'consumer/sdk.ts'), 'utf8');
  // `@erp/sdk/sales` (how the bench's own type-check reads it) is `./sdk/sales.js` once copied.
  const asCopied = (entry: string) => sdkFile.replace(/'@erp\/sdk\/sales'/, `'./sdk/${entry}.js'`);
  const dirs = {
    'sdk: sales entry': await project(root, 'sales', asCopied('sales')),
    'sdk: whole entry (index)': await project(root, 'index', asCopied('index')),
    stripe: await project(
      root,
      'stripe',
      await readFile(path.join(HERE, 'consumer/stripe.ts'), 'utf8'),
    ),
  };
  await cp(SDK_SRC, path.join(dirs['sdk: sales entry'], 'sdk'), { recursive: true });
  await cp(SDK_SRC, path.join(dirs['sdk: whole entry (index)'], 'sdk'), { recursive: true });
  // Stripe installed as an integrator would have it: its package and the Node types it references.
  const modules = path.join(dirs.stripe, 'node_modules');
  await mkdir(path.join(modules, '@types'), { recursive: true });
  const stripe = await realpath(path.join(BENCH_DIR, 'node_modules/stripe'));
  const nodeTypes = await realpath(path.join(BENCH_DIR, 'node_modules/@types/node'));
  await symlink(stripe, path.join(modules, 'stripe'), 'dir');
  await symlink(nodeTypes, path.join(modules, '@types/node'), 'dir');
  return { dirs, cleanup: () => rm(root, { recursive: true, force: true }) };
}

async function project(root: string, name: string, consumer: string): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(path.join(dir, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  await writeFile(path.join(dir, 'consumer.ts'), consumer);
  return dir;
}

// Loaded into tsc's process: its maximum RSS, read as it exits (no /usr/bin/time needed).
const MAX_RSS_HOOK = `process.on('exit', () => process.stderr.write('maxrss_kb=' + process.resourceUsage().maxRSS + '\\n'));`;

/** `tsc --noEmit --extendedDiagnostics` in `dir`, in a process of its own; fails on any error. */
export async function typeCheck(dir: string): Promise<TypeCheck> {
  const hook = path.join(dir, '..', 'max-rss.cjs');
  await writeFile(hook, MAX_RSS_HOOK);
  const started = performance.now();
  const { code, stdout, stderr } = await run(process.execPath, [
    '--require',
    hook,
    TSC,
    '-p',
    dir,
    '--extendedDiagnostics',
  ]);
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`tsc failed in ${dir}:\n${stdout}${stderr}`);
  const figure = (label: string) => {
    const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(stdout);
    if (!match) throw new Error(`tsc printed no "${label}":\n${stdout}`);
    return Number(match[1]);
  };
  const rss = /maxrss_kb=(\d+)/.exec(stderr);
  if (!rss) throw new Error(`no max RSS from tsc:\n${stderr}`);
  return {
    wallSeconds,
    totalSeconds: figure('Total time'),
    checkSeconds: figure('Check time'),
    instantiations: figure('Instantiations'),
    heapMb: figure('Memory used') / 1024,
    maxRssMb: Number(rss[1]) / 1024,
  };
}

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
