import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A portal running as a child process. */
export interface PortalProcess {
  baseUrl: string;
  pid: number;
  /** SIGTERM (graceful), then SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** Which build of the portal runs: its sources through tsx, or the tsup bundle in dist/. */
export type PortalEntry = 'source' | 'dist';

/**
 * Starts the portal in its own process: `source` runs src/main.ts through tsx (always up to
 * date), `dist` runs dist/main.js as the container image does (needs `pnpm --filter
 * @erp/portal build` first).
 */
export async function startPortal(
  portalDir: string,
  port: number,
  env: Record<string, string>,
  entry: PortalEntry = 'source',
): Promise<PortalProcess> {
  const args = entry === 'dist' ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: portalDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => {
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
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error('the portal exited during start-up (see its output above)');
    const ok = await fetch(`${baseUrl}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { baseUrl, pid: child.pid!, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error('the portal did not answer /api/v1/health within 60 s');
}
