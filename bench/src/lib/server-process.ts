import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

/** An HTTP server running as a child process. */
export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** SIGTERM (graceful), then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** Which build of the portal runs: its sources through tsx, or the tsup bundle in dist/. */
export type PortalEntry = 'source' | 'dist';

export interface ServerSpec {
  /** Shown in errors. */
  name: string;
  cwd: string;
  /** Arguments to `node` (this process's executable, so the pid measured is the server's). */
  args: string[];
  env: Record<string, string>;
  port: number;
  /** Answers 200 once the server is ready. */
  readyPath: string;
}

// Servers still running when this process exits (a signal during start-up, before the caller
// could register their stop) get SIGTERM on the way out instead of outliving the benchmark.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/**
 * Starts a server in its own process and waits until `readyPath` answers 200 (60 s at most).
 * Its output goes to ours, so a crash explains itself.
 */
export function startServerProcess(spec: ServerSpec): Promise<ServerProcess> {
  return startCommandProcess(process.execPath, spec);
}

/**
 * The same for any executable (nginx, say): `spec.args` are its arguments. The pid measured
 * is the executable's own (a master process counts its workers through `treeCpuMs`).
 */
export async function startCommandProcess(
  command: string,
  spec: ServerSpec,
): Promise<ServerProcess> {
  const child = spawn(command, spec.args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  running.add(child);
  let exited = false;
  child.on('error', () => {
    exited = true; // not started (ENOENT, EACCES): the loop below reports it
  });
  child.on('exit', () => {
    running.delete(child);
    exited = true;
  });
  const stop = async () => {
    if (exited || child.exitCode !== null) return;
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  };
  const baseUrl = `http://127.0.0.1:${spec.port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${spec.name} exited during start-up (see its output above)`);
    const ok = await fetch(baseUrl + spec.readyPath).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { baseUrl, pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${spec.name} did not answer ${spec.readyPath} within 60 s`);
}

/**
 * Node options for the servers a bench starts (the portal, the list's bare servers), from
 * `BENCH_NODE_ARGS`, space-separated: flags NODE_OPTIONS refuses, such as `--trace-gc`.
 */
export function serverNodeArgs(): string[] {
  return process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
}

/**
 * Starts the portal: `source` runs src/main.ts through tsx (always up to date), `dist` runs
 * dist/main.js as the container image does (needs `pnpm --filter @erp/portal build` first).
 * `BENCH_PORTAL_CPU_PROF=1` writes a V8 CPU profile of it when it stops, in
 * bench/results/portal-cpu-profiles.
 */
export function startPortal(
  portalDir: string,
  port: number,
  env: Record<string, string>,
  entry: PortalEntry = 'source',
): Promise<ServerProcess> {
  return startServerProcess({
    name: 'the portal',
    cwd: portalDir,
    args: [
      ...(process.env.BENCH_PORTAL_CPU_PROF === '1'
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${path.resolve(import.meta.dirname, '../../results/portal-cpu-profiles')}`,
          ]
        : []),
      ...serverNodeArgs(),
      ...(entry === 'dist' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts']),
    ],
    env,
    port,
    readyPath: '/api/v1/health',
  });
}
