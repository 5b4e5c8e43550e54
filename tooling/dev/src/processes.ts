import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

type Env = Record<string, string | undefined>;

/** Runs a command with the terminal attached; resolves to its exit code. */
export function runCommand(command: string, args: string[], env: Env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export interface RunningApps {
  /** Resolves with turbo's exit code once every app has stopped (0 when interrupted). */
  exited: Promise<number>;
  /** Stops the apps as Ctrl-C would; resolves once they have. */
  stop(): Promise<void>;
}

export interface StartAppsOptions {
  repoRoot: string;
  env: Env;
  /** Every line the apps (and turbo) write, as it is relayed to the terminal. */
  onLine?: (line: string) => void;
}

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs every app's `dev` script through turbo; apps added later join through their own
 * `dev` script. turbo runs in its own process group, so this process is the only one
 * that signals it: a Ctrl-C reaching both would count as two, and turbo force-kills the
 * apps on the second one. Its output passes through this process, line by line, so that
 * `pnpm dev` can tell when an app reports it cannot start.
 */
export function startApps(options: StartAppsOptions): RunningApps {
  const args = ['run', 'dev', '--filter=./apps/*'];
  // Piped, turbo would drop its colours; the terminal behind this process still wants them.
  if (process.stdout.isTTY) args.push('--color');
  const child = spawn(turboBinary(options.repoRoot), args, {
    cwd: options.repoRoot,
    env: options.env,
    detached: true,
    // A background process group must not read the terminal; the apps need no input.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  relayLines(child.stdout, process.stdout, options.onLine);
  relayLines(child.stderr, process.stderr, options.onLine);
  let interrupted = false;
  let lastForward = 0;
  const forward = (signal: NodeJS.Signals) => {
    // One Ctrl-C can arrive twice (directly and relayed by tsx's parent): collapse those,
    // and let a deliberate second Ctrl-C through, which tells turbo to stop forcefully.
    if (child.exitCode !== null || Date.now() - lastForward < 1000) return;
    interrupted = true;
    lastForward = Date.now();
    child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const s of FORWARDED_SIGNALS) process.off(s, forward);
      // Being interrupted is how `pnpm dev` normally ends: not a failure.
      resolve(interrupted ? 0 : (code ?? (signal ? 1 : 0)));
    });
  });
  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    forward('SIGINT');
    // turbo gives its tasks time to stop; an app that ignores it is killed with its group.
    const timer = setTimeout(() => killGroup(child.pid), 20_000);
    await exited.catch(() => {});
    clearTimeout(timer);
  }
  return { exited, stop };
}

function relayLines(from: Readable, to: Writable, onLine?: (line: string) => void): void {
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    to.write(`${line}\n`);
    onLine?.(line);
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The native turbo binary. The npm `turbo` wrapper ignores SIGINT (it expects the
 * terminal to deliver it to the native binary too), which a separate group prevents.
 */
function turboBinary(repoRoot: string): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'x64' ? '64' : process.arch;
  const fromTurbo = createRequire(path.join(repoRoot, 'node_modules', 'turbo', 'package.json'));
  const exe = platform === 'windows' ? '.exe' : '';
  try {
    return fromTurbo.resolve(`@turbo/${platform}-${arch}/bin/turbo${exe}`);
  } catch {
    throw new Error(`turbo has no binary for ${platform}-${arch} here: run \`pnpm install\``);
  }
}
