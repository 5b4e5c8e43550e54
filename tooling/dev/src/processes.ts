import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

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
  /** Resolves with turbo's exit code once every app has stopped. */
  exited: Promise<number>;
}

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs every app's `dev` script through turbo; apps added later join through their own
 * `dev` script. turbo runs in its own process group, so this process is the only one
 * that signals it: a Ctrl-C reaching both would count as two, and turbo force-kills the
 * apps on the second one.
 */
export function startApps(repoRoot: string, env: Env): RunningApps {
  const child = spawn(turboBinary(repoRoot), ['run', 'dev', '--filter=./apps/*'], {
    cwd: repoRoot,
    env,
    detached: true,
    // A background process group must not read the terminal; the apps need no input.
    stdio: ['ignore', 'inherit', 'inherit'],
  });
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
  return { exited };
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
