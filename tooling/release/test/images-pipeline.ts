import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  copyArgs,
  type Dockerfile,
  envPairs,
  execForm,
  type Instruction,
  runCommand,
  type Stage,
} from './images-dockerfile';

/** What the runtime stage of one app's image holds, laid out in a directory. */
export interface BuiltImage {
  app: string;
  /** The image's WORKDIR: package.json, dist/, node_modules/ (production only), healthcheck. */
  appDir: string;
  /** The runtime stage's ENV. */
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
  /** Seconds per step, for the report. */
  timings: Record<string, number>;
}

export interface BuildOptions {
  app: string;
  dockerfile: Dockerfile;
  /** The build context (the repository). */
  repoRoot: string;
  /** Stands in for the image's filesystem root: /out, /repo, /prod/app, /app live under it. */
  root: string;
  /** The machine's pnpm store, standing in for the build's cache mount. */
  storeDir: string;
}

/** Tool installation (pnpm, turbo): the test uses the workspace's own, checked to be the same versions. */
const isToolInstall = (command: string) => command.startsWith('npm install --global');

/**
 * Runs the Dockerfile's prune, build and runtime stages for one app without Docker: every RUN
 * as written (image paths mapped under `root`, the install told to prefer the local store),
 * every COPY as a copy, then returns the runtime stage's directory, ENV, CMD and HEALTHCHECK.
 */
export async function buildImageWithoutDocker(options: BuildOptions): Promise<BuiltImage> {
  const { app, dockerfile, repoRoot, root } = options;
  const args: Record<string, string> = { ...dockerfile.globalArgs, APP: app };
  const timings: Record<string, number> = {};
  const mapPath = (p: string) =>
    p.startsWith('/pnpm/store') ? options.storeDir : path.join(root, p);
  const mapCommand = (command: string) =>
    command.replace(/(^|\s)(\/[^\s"']+)/g, (_, space: string, p: string) => space + mapPath(p));
  const env: Record<string, string> = {};
  let workdir = '/';
  let runtime: Pick<BuiltImage, 'cmd' | 'healthcheck'> = { cmd: [], healthcheck: [] };

  const chain = (stage: Stage): Stage[] => {
    const parent = dockerfile.stages.find((s) => s.name === stage.from);
    return parent ? [...chain(parent), stage] : [stage];
  };
  async function runStage(name: string, cwdOverride?: string) {
    for (const stage of chain(dockerfile.stage(name))) {
      for (const instruction of stage.instructions) await step(instruction, cwdOverride);
    }
  }
  async function step(instruction: Instruction, cwdOverride?: string) {
    const cwd = cwdOverride ?? mapPath(workdir);
    switch (instruction.keyword) {
      case 'ARG': {
        const [name = '', value] = instruction.args.split('=');
        if (value !== undefined && !(name in args)) args[name] = value;
        return;
      }
      case 'ENV':
        Object.assign(env, envPairs(instruction, args));
        return;
      case 'WORKDIR':
        workdir = instruction.args;
        await mkdir(mapPath(workdir), { recursive: true });
        return;
      case 'COPY':
        // The prune stage works in the repository itself: its `COPY . .` is a no-op here.
        if (!cwdOverride) await copy(instruction, cwd);
        return;
      case 'RUN': {
        const command = runCommand(instruction);
        if (isToolInstall(command)) return;
        let mapped = mapCommand(command);
        if (/^pnpm install\b/.test(command)) mapped += ' --prefer-offline';
        const started = performance.now();
        await run(mapped, cwd, { ...env, ...args });
        timings[command.split(/\s+/).slice(0, 4).join(' ')] =
          Math.round((performance.now() - started) / 100) / 10;
        return;
      }
      case 'CMD':
        runtime = { ...runtime, cmd: execForm(instruction) };
        return;
      case 'HEALTHCHECK':
        runtime = { ...runtime, healthcheck: execForm(instruction) };
        return;
      default: // USER, EXPOSE: nothing to do outside a container.
    }
  }
  async function copy(instruction: Instruction, cwd: string) {
    const { from, sources, dest } = copyArgs(instruction);
    for (const source of sources) {
      const src = from ? mapPath(source) : path.join(repoRoot, source);
      const isDir = (await stat(src)).isDirectory();
      const base = dest.startsWith('/') ? mapPath(dest) : path.resolve(cwd, dest);
      const intoDir = !isDir && /\/$|^\.\/?$/.test(dest);
      const target = intoDir ? path.join(base, path.basename(src)) : base;
      await cp(src, target, { recursive: true, verbatimSymlinks: true });
    }
  }

  await runStage('prune', repoRoot);
  for (const key of Object.keys(env)) delete env[key];
  await runStage('build');
  for (const key of Object.keys(env)) delete env[key];
  workdir = '/';
  // The runtime stage starts from the node image, not from a stage of this file.
  for (const instruction of dockerfile.stage('runtime').instructions) await step(instruction);
  return { app, appDir: mapPath(workdir), env: { ...env }, ...runtime, timings };
}

/** The environment of the build's commands: none of the test runner's pnpm/turbo/vitest variables. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^(npm_|PNPM_|TURBO_|VITEST|NODE_OPTIONS$|INIT_CWD$)/i.test(name),
  );
  return { ...Object.fromEntries(kept), ...extra };
}

/** Runs a shell command; rejects with its output when it fails. */
export async function run(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs = 5 * 60_000,
): Promise<string> {
  const repoBin = path.resolve(import.meta.dirname, '../../../node_modules/.bin');
  const child = spawn('sh', ['-c', command], {
    cwd,
    env: cleanEnv({ ...env, PATH: `${repoBin}:${process.env.PATH}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that a step that hangs is stopped with everything it started.
    detached: true,
  });
  const output = collect(child);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  if (timedOut)
    throw new Error(
      `\`${command}\` in ${cwd} did not end within ${timeoutMs / 1000} s; its output:\n${output.join('').slice(-4000)}`,
    );
  if (code !== 0) throw new Error(`\`${command}\` in ${cwd} exited ${code}:\n${output.join('')}`);
  return output.join('');
}

/** Collects a child's stdout and stderr as they come. */
export function collect(child: ChildProcess): string[] {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return output;
}

export { cleanEnv };
