import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { machineBusyMs, selfCpuMs, treeCpuMs } from '../lib/cpu';

/** What one export delivered, and what it cost. */
export interface Transfer {
  bytes: number;
  /** Line feeds seen: records (NDJSON), records + header (CSV). */
  lines: number;
  seconds: number;
  /** CPU ms of the serving process tree (the portal, psql, or this process for in-process reads). */
  serverCpuMs: number;
  postgresCpuMs: number;
  /** CPU ms of everything else on the machine meanwhile, in % of one core. */
  othersCpuPct: number;
  /** The serving process's peak resident set during the transfer, and before it (KiB). */
  rssBeforeKiB?: number;
  rssPeakKiB?: number;
}

const LF = 0x0a;
function countLines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) n++;
  return n;
}

/**
 * CPU ms of this process's children that have exited and been waited for (cutime + cstime):
 * psql's, once it is done (the long-lived children, PostgreSQL and the portal, never count).
 */
function reapedChildrenCpuMs(): number {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** VmRSS of a process, in KiB. */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN);
}

/**
 * Measures `run` (which resolves when the last byte arrived): wall time, the CPU of the
 * serving process tree and of PostgreSQL, the rest of the machine, and, with `rssPid`, that
 * process's resident set sampled every 10 ms.
 */
async function measured(
  pids: { postmaster: number; rss?: number },
  /** CPU ms so far of what serves the rows. */
  cpu: () => number,
  run: () => Promise<{ bytes: number; lines: number }>,
): Promise<Transfer> {
  const rssBeforeKiB = pids.rss ? rssKiB(pids.rss) : undefined;
  let rssPeakKiB = rssBeforeKiB;
  const sampler = pids.rss
    ? setInterval(() => {
        rssPeakKiB = Math.max(rssPeakKiB!, rssKiB(pids.rss!));
      }, 10)
    : undefined;
  const [server0, pg0, busy0, self0] = [
    cpu(),
    treeCpuMs(pids.postmaster),
    machineBusyMs(),
    selfCpuMs(),
  ];
  const started = performance.now();
  try {
    const { bytes, lines } = await run();
    const seconds = (performance.now() - started) / 1000;
    // A process that just exited (psql, its backend) reaches its parent's totals once reaped.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const serverCpuMs = cpu() - server0;
    const postgresCpuMs = treeCpuMs(pids.postmaster) - pg0;
    // This process reads the rows: counted with the server when it is the server.
    const selfMs = cpu === selfCpuMs ? 0 : selfCpuMs() - self0;
    const othersMs = machineBusyMs() - busy0 - serverCpuMs - postgresCpuMs - selfMs;
    if (pids.rss) rssPeakKiB = Math.max(rssPeakKiB!, rssKiB(pids.rss));
    return {
      bytes,
      lines,
      seconds,
      serverCpuMs,
      postgresCpuMs,
      othersCpuPct: Math.max(0, othersMs / 10 / seconds),
      rssBeforeKiB,
      rssPeakKiB,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** An HTTP GET read to the end as fast as this process can (bytes and line feeds counted). */
export function httpExport(
  url: string,
  headers: Record<string, string>,
  pids: { server: number; postmaster: number },
): Promise<Transfer> {
  return measured(
    { postmaster: pids.postmaster, rss: pids.server },
    () => treeCpuMs(pids.server),
    () => readHttp(url, headers),
  );
}

function readHttp(url: string, headers: Record<string, string>) {
  return new Promise<{ bytes: number; lines: number }>((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      if (response.statusCode !== 200) {
        let text = '';
        response.on('data', (c: Buffer) => {
          text += c.toString();
        });
        response.on('end', () => reject(new Error(`GET ${url}: ${response.statusCode} ${text}`)));
        return;
      }
      let bytes = 0;
      let lines = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        lines += countLines(chunk);
      });
      response.on('end', () => resolve({ bytes, lines }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * `COPY (<statement>) TO STDOUT` through psql (PostgreSQL's own C client), read from its stdout:
 * what PostgreSQL alone delivers the same rows at.
 */
export function psqlCopy(
  databaseUrl: string,
  copy: string,
  pids: { postmaster: number },
  psql = 'psql',
): Promise<Transfer> {
  return measured(
    pids,
    reapedChildrenCpuMs,
    () =>
      new Promise((resolve, reject) => {
        const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl, '-c', copy];
        const child = spawn(psql, args, { stdio: ['ignore', 'pipe', 'inherit'] });
        let bytes = 0;
        let lines = 0;
        child.stdout.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          lines += countLines(chunk);
        });
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve({ bytes, lines }) : reject(new Error(`psql exited with ${code}`)),
        );
      }),
  );
}

/** Reads a stream in this process (the portal's cursor code without HTTP), counting as above. */
export function inProcess(
  open: () => Promise<ReadableStream<Uint8Array>>,
  pids: { postmaster: number },
): Promise<Transfer> {
  return measured(pids, selfCpuMs, async () => {
    const stream = await open();
    let bytes = 0;
    let lines = 0;
    for await (const chunk of stream) {
      bytes += chunk.length;
      lines += countLines(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    }
    return { bytes, lines };
  });
}
