import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { BuiltImage } from './images-pipeline';
import { cleanEnv, collect, run } from './images-pipeline';

/** A process started from an image's directory with its CMD, as the container would. */
export interface RunningApp {
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

/** Starts the image's CMD in its directory with its ENV plus `env` (like `docker run -e`). */
export function startImage(image: BuiltImage, env: Record<string, string>): RunningApp {
  const [command = 'node', ...args] = image.cmd;
  const child = spawn(command, args, {
    cwd: image.appDir,
    env: cleanEnv({ ...image.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  return {
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Runs a command of the image (e.g. `node dist/migrate.js`) to its end, with its ENV. */
export function runInImage(image: BuiltImage, command: string, env: Record<string, string>) {
  return run(command, image.appDir, { ...image.env, ...env });
}

/** Polls `url` until it answers 200; fails at once if the app exits. */
export async function waitForOk(url: string, app: RunningApp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (app.child.exitCode !== null) {
      throw new Error(
        `exited ${app.child.exitCode} before ${url} answered:\n${app.output.join('')}`,
      );
    }
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`${url} answered ${status}:\n${app.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
