import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** A helper process of the benchmark, driven over Node's IPC channel. */
export interface Child {
  pid: number;
  /** Sends a request; resolves with the child's reply to it (a reply may come much later). */
  call<T = unknown>(request: Record<string, unknown>): Promise<T>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(): Promise<void>;
}

export interface ChildSpec {
  /** Shown in errors. */
  name: string;
  /** A TypeScript file, run with `node --import tsx`. */
  script: string;
  cwd: string;
  env: Record<string, string>;
  graceMs?: number;
}

/** The clock every process of the run stamps with: wall-clock milliseconds, sub-ms precision. */
export const clock = () => performance.timeOrigin + performance.now();

/**
 * Spawns a script with an IPC channel and waits for its `{type: 'ready'}` message (60 s).
 * Its stdout and stderr go to our stderr: stdout is the report's.
 */
export async function startChild(spec: ChildSpec): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', spec.script], {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  let ready: (() => void) | undefined;
  child.on('message', (message: { type?: string; id?: number; error?: string }) => {
    if (message.type === 'ready') return ready?.();
    const waiter = pending.get(message.id ?? -1);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(`${spec.name}: ${message.error}`));
    else waiter.resolve(message);
  });
  child.on('exit', (code, signal) => {
    for (const waiter of pending.values())
      waiter.reject(new Error(`${spec.name} exited (${code ?? signal})`));
    pending.clear();
  });
  const stop = () => stopProcess(child, spec.graceMs ?? 5_000);
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code, signal) =>
      reject(new Error(`${spec.name} exited during start-up (${code ?? signal})`)),
    );
    setTimeout(() => reject(new Error(`${spec.name} not ready within 60 s`)), 60_000).unref();
  });
  try {
    await started;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid: child.pid!,
    stop,
    call<T>(request: Record<string, unknown>) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ ...request, id });
      });
    },
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

/** In a child: answers the parent's requests with `handle`; exits when the parent goes away. */
export function serveParent(
  handle: (request: Record<string, unknown>) => Promise<Record<string, unknown>>,
): void {
  process.on('message', (request: Record<string, unknown>) => {
    handle(request).then(
      (reply) => process.send?.({ ...reply, id: request.id }),
      (error: unknown) => process.send?.({ id: request.id, error: String(error) }),
    );
  });
  // The benchmark died without stopping us: do not outlive it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready' });
}
