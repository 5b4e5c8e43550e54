import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { envInt, log, runBench } from './lib/cli';
import type { HttpRouteResult } from './lib/http-rounds';
import {
  type IssueRow,
  issueTable,
  listIssueRows,
  medianRows,
  webhookIssueRows,
} from './throughput/issue-17';
import { listFloorRows, webhookFloorRows } from './throughput/issue-30';
import type { PhaseResult } from './webhooks/report';

/**
 * Issue 17's whole table in one run: `pnpm bench webhooks`, then `pnpm bench list`, each as it
 * runs alone (its own PostgreSQL, its full report printed as it goes), `BENCH_RUNS` times; then
 * every row of the table from their results files, run by run, and the medians of the runs.
 * Their settings come from the environment as for each alone (BENCH_ROUNDS, BENCH_SECONDS…).
 */
const RUNS = envInt('BENCH_RUNS', 2);
const RESULTS = path.resolve(import.meta.dirname, '../results');
const BENCHES = ['webhooks', 'list'] as const;

let running: ReturnType<typeof spawn> | undefined;

async function main(): Promise<void> {
  const runs: IssueRow[][] = [];
  const floorRuns: IssueRow[][] = [];
  for (let run = 1; run <= RUNS; run++) {
    const results: Record<string, unknown> = {};
    for (const bench of BENCHES) {
      log(`\n== throughput: run ${run} of ${RUNS}, pnpm bench ${bench}`);
      results[bench] = await runAndRead(bench);
    }
    const webhooks = results.webhooks as { phases: PhaseResult[] };
    const list = results.list as { http: HttpRouteResult[] };
    const rows = [...webhookIssueRows(webhooks.phases), ...listIssueRows(list.http)];
    runs.push(rows);
    const floors = [...webhookFloorRows(webhooks.phases), ...listFloorRows(list.http)];
    floorRuns.push(floors);
    process.stdout.write(`\n== Issue 17, run ${run} of ${RUNS}\n${issueTable(rows)}\n`);
    process.stdout.write(
      `\n== Issue 30, the rows restated against their floors, run ${run} of ${RUNS}\n${issueTable(floors, 30)}\n`,
    );
  }
  process.stdout.write(
    `\n== Issue 17, medians of ${RUNS} runs (a bar is "met" only if every run met it)\n${issueTable(medianRows(runs))}\n`,
  );
  process.stdout.write(
    `\n== Issue 30, medians of ${RUNS} runs (a bar is "met" only if every run met it)\n${issueTable(medianRows(floorRuns), 30)}\n`,
  );
}

/** Runs one benchmark to its end, then reads the results file it wrote. */
async function runAndRead(bench: (typeof BENCHES)[number]): Promise<unknown> {
  const started = new Date().toISOString().replace(/[:.]/g, '-');
  await new Promise<void>((resolve, reject) => {
    running = spawn(process.execPath, ['--import', 'tsx', `src/${bench}.ts`], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: 'inherit',
    });
    running.once('error', reject);
    running.once('exit', (code, signal) => {
      running = undefined;
      if (code === 0) resolve();
      else reject(new Error(`pnpm bench ${bench} ended with ${signal ?? `exit code ${code}`}`));
    });
  });
  const files = (await readdir(RESULTS))
    .filter((name) => name.startsWith(`${bench}-`) && name.slice(bench.length + 1) >= started)
    .sort();
  const file = files.at(-1);
  if (!file) throw new Error(`pnpm bench ${bench} wrote no results file`);
  return JSON.parse(await readFile(path.join(RESULTS, file), 'utf8'));
}

runBench('throughput', main, async () => {
  running?.kill('SIGTERM');
});
