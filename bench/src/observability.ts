import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@erp/db/embedded';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type HttpRoute, runHttpRounds } from './lib/http-rounds';
import { httpTable, stepTable } from './lib/report';
import { type ServerProcess, startServerProcess } from './lib/server-process';

/**
 * `pnpm bench observability`: what logs, metrics and traces cost a request. Four servers, one
 * step apart (see observability/server.ts), answer the same route; the server's CPU per request
 * is read from /proc, so the differences are the steps' costs, whatever else runs beside.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 5),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2),
  connections: envInt('BENCH_CONNECTIONS', 10),
};
const VARIANTS = [
  ['A bare', 'bare'],
  ['B + metrics', 'metrics'],
  ['C + access log', 'logs'],
  ['D + traces', 'traces'],
] as const;

const servers: ServerProcess[] = [];
let sink: http.Server | undefined;

async function main(): Promise<void> {
  // An OTLP intake that takes every export and keeps nothing: the traced server pays its
  // export, the sink's own CPU is the load generator's.
  let exported = 0;
  sink = http.createServer((req, res) => {
    req.resume().on('end', () => {
      exported++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => sink!.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const routes: HttpRoute[] = [];
  for (const [name, variant] of VARIANTS) {
    const port = await findFreePort();
    const server = await startServerProcess({
      name,
      cwd: path.resolve(import.meta.dirname, '..'),
      args: ['--import', 'tsx', 'src/observability/server.ts'],
      env: {
        OBS_VARIANT: variant,
        PORT: String(port),
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        NODE_ENV: 'production',
      },
      port,
      readyPath: '/api/v1/items/ready',
    });
    servers.push(server);
    routes.push({
      name,
      url: `${server.baseUrl}/api/v1/items/0190a0b0-0000-7000-8000-000000000001`,
      serverPid: server.pid,
      headers: {},
      expectStatus: 200,
    });
  }
  log(`HTTP: ${settings.rounds} rounds × ${routes.length} servers × ${settings.seconds} s`);
  // No database here: nothing to count as PostgreSQL's (no process has pid 0).
  const results = await runHttpRounds(routes, { ...settings, postmasterPid: 0 });
  const environment = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
  };
  const out = [
    `\n== Logs, metrics and traces per request (${environment.cpus}; Node ${environment.node})`,
    `   medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s, ${settings.connections} connections; servers through tsx, NODE_ENV=production`,
    `   spans exported to the sink: ${exported} batches\n`,
    httpTable(results, 'server'),
    '',
    stepTable(
      results,
      [
        ['request histogram + route template', 'B', 'A'],
        ['JSON access log line (pino)', 'C', 'B'],
        ['traces (http span, batch export)', 'D', 'C'],
        ['all three', 'D', 'A'],
      ],
      'server',
    ),
  ].join('\n');
  process.stdout.write(`${out}\n`);
  await writeResults('observability', { environment, settings, results });
}

runBench('observability', main, async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await new Promise((resolve) => (sink ? sink.close(resolve) : resolve(undefined)));
});
