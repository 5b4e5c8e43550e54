import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

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

/** The sdk through a module's entry: the row issue 30's bar is about. */
export const MODULE_ENTRY = 'sdk: sales entry';
export const STRIPE = 'stripe';

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

/**
 * Writes the projects into a temporary directory, by consumer name (`cleanup` removes it): the
 * sdk through the sales entry and through the whole entry, Stripe, and with `baseline` (a git
 * ref) the sdk of that commit through its whole entry.
 */
export async function prepareConsumers(baseline?: string): Promise<{
  dirs: Record<string, string>;
  cleanup: () => Promise<void>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), 'sdk-typecheck-'));
  const sdkFile = await readFile(path.join(HERE, 'consumer/sdk.ts'), 'utf8');
  // `@erp/sdk/sales` (how the bench's own type-check reads it) is `./sdk/sales.js` once copied.
  const asCopied = (entry: string) => sdkFile.replace(/'@erp\/sdk\/sales'/, `'./sdk/${entry}.js'`);
  const sdkProject = async (name: string, entry: string, src: string) => {
    const dir = await project(root, name, asCopied(entry));
    await cp(src, path.join(dir, 'sdk'), { recursive: true });
    return dir;
  };
  const dirs: Record<string, string> = {
    [MODULE_ENTRY]: await sdkProject('sales', 'sales', SDK_SRC),
    'sdk: whole entry (index)': await sdkProject('index', 'index', SDK_SRC),
  };
  if (baseline) {
    const src = await sdkAt(baseline, path.join(root, 'baseline'));
    dirs[`sdk at ${baseline}: whole entry`] = await sdkProject('baseline-index', 'index', src);
  }
  dirs[STRIPE] = await project(
    root,
    'stripe',
    await readFile(path.join(HERE, 'consumer/stripe.ts'), 'utf8'),
  );
  // Stripe installed as an integrator would have it: its package and the Node types it references.
  const modules = path.join(dirs[STRIPE], 'node_modules');
  await mkdir(path.join(modules, '@types'), { recursive: true });
  const stripe = await realpath(path.join(BENCH_DIR, 'node_modules/stripe'));
  const nodeTypes = await realpath(path.join(BENCH_DIR, 'node_modules/@types/node'));
  await symlink(stripe, path.join(modules, 'stripe'), 'dir');
  await symlink(nodeTypes, path.join(modules, '@types/node'), 'dir');
  return { dirs, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** `packages/sdk/src` as commit `ref` had it, extracted under `into`. */
async function sdkAt(ref: string, into: string): Promise<string> {
  await mkdir(into, { recursive: true });
  const repo = path.resolve(BENCH_DIR, '..');
  const archive = path.join(into, 'sdk.tar');
  await promisify(execFile)('git', ['-C', repo, 'archive', '-o', archive, ref, 'packages/sdk/src']);
  await promisify(execFile)('tar', ['-xf', archive, '-C', into]);
  return path.join(into, 'packages/sdk/src');
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
