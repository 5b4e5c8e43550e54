import type { Browser } from 'playwright-core';
import { launch } from './console/browser-run';
import {
  type ReferenceTargets,
  type ReferenceTimings,
  timeIndex,
  timeReference,
} from './docs/reference-visit';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { f, table } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';
import { median } from './lib/stats';

/**
 * `pnpm bench docs`: the API reference (`/api/v1/docs`) in Chromium against the real portal.
 * From navigation to the first operations shown, and to an operation opened by its link, for
 * one part (Scalar over `openapi/sales.json`) and for the whole document in one page (Scalar
 * over `openapi.json`, what the reference was), rounds interleaved, each visit in a fresh
 * browser context (empty cache). Medians of BENCH_RUNS rounds (default 5).
 */
const settings = { runs: envInt('BENCH_RUNS', 5) };
const BARS = { firstOperations: 2_000, operationByLink: 3_000 };
/** The link the index gives (the operation's tag is its resource's: `Sales orders`). */
const LINK = {
  anchor: 'tag/sales-orders/POST/api/v1/sales-orders',
  summary: 'Create a sales order',
};

let stack: BenchStack | undefined;
let browser: Browser | undefined;

type Document = {
  paths: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
  'x-tagGroups': Array<{ tags: string[] }>;
};

/** The path of the first operation Scalar lists: the first of the first group's first tag. */
async function firstPath(url: string): Promise<{ path: string; bytes: number }> {
  const text = await (await fetch(url)).text();
  const document = JSON.parse(text) as Document;
  const tag = document['x-tagGroups'][0]!.tags[0]!;
  for (const [path, item] of Object.entries(document.paths))
    for (const op of Object.values(item))
      if (op.tags?.includes(tag)) return { path, bytes: Buffer.byteLength(text) };
  throw new Error(`no operation tagged ${tag} in ${url}`);
}

async function main(): Promise<void> {
  log('starting PostgreSQL, seeding, starting the portal (production)…');
  stack = await startStack({ entry: 'source', ephemeral: true });
  const api = `${stack.baseUrl}/api/v1`;
  const part = await firstPath(`${api}/openapi/sales.json`);
  const whole = await firstPath(`${api}/openapi.json`);
  const references: Record<'part' | 'whole', ReferenceTargets> = {
    part: {
      part: 'sales',
      firstPath: part.path,
      linkAnchor: LINK.anchor,
      linkSummary: LINK.summary,
    },
    whole: {
      part: 'all',
      firstPath: whole.path,
      linkAnchor: LINK.anchor,
      linkSummary: LINK.summary,
    },
  };
  browser = await launch();
  // One visit of each first, not counted: the portal reads, cuts and compresses on first use.
  await timeIndex(browser, stack.baseUrl);
  await timeReference(browser, stack.baseUrl, references.part);
  await timeReference(browser, stack.baseUrl, references.whole);

  const runs: Array<{ index: number; part: ReferenceTimings; whole: ReferenceTimings }> = [];
  for (let i = 1; i <= settings.runs; i++) {
    const index = await timeIndex(browser, stack.baseUrl);
    const partTimes = await timeReference(browser, stack.baseUrl, references.part);
    const wholeTimes = await timeReference(browser, stack.baseUrl, references.whole);
    runs.push({ index, part: partTimes, whole: wholeTimes });
    log(
      `  round ${i}: index ${f(index)} ms; sales part ${f(partTimes.operationsListed ?? 0)} / ${f(partTimes.firstOperations)} / ${f(partTimes.operationListedByLink ?? 0)} / ${f(partTimes.operationByLink)} ms; whole ${f(wholeTimes.firstOperations)} / ${f(wholeTimes.operationByLink)} ms`,
    );
  }
  const med = (pick: (r: (typeof runs)[number]) => number) => median(runs.map(pick));
  const row = (label: string, pick: (r: (typeof runs)[number]) => number, bar?: number) => {
    const values = runs.map(pick);
    const m = median(values);
    return [
      label,
      f(m),
      f(Math.min(...values)),
      f(Math.max(...values)),
      bar === undefined ? '–' : `≤ ${f(bar)}: ${m <= bar ? 'within' : 'OVER'}`,
    ];
  };
  console.log(
    `\nDocuments: the sales part ${f(part.bytes / 1024)} kB, the whole ${f(whole.bytes / 1024)} kB (uncompressed; served br)`,
  );
  console.log(
    `\nChromium, from navigation, median of ${settings.runs} rounds, each visit in a fresh context (ms)\n`,
  );
  console.log(
    table(
      ['what is shown', 'median ms', 'min', 'max', 'bar'],
      [
        row('index of the parts (no Scalar)', (r) => r.index),
        row(
          'sales part: its operations listed (before Scalar)',
          (r) => r.part.operationsListed ?? Number.NaN,
          BARS.firstOperations,
        ),
        row(
          'sales part: first operations rendered by Scalar',
          (r) => r.part.firstOperations,
          BARS.firstOperations,
        ),
        row(
          `sales part by link: "${LINK.summary}" listed and marked (before Scalar; its heading if Scalar came first)`,
          (r) => r.part.operationListedByLink ?? Number.NaN,
          BARS.operationByLink,
        ),
        row(
          `sales part by link: "${LINK.summary}" rendered by Scalar`,
          (r) => r.part.operationByLink,
          BARS.operationByLink,
        ),
        row('whole document: first operations rendered by Scalar', (r) => r.whole.firstOperations),
        row(`whole document: "${LINK.summary}" by link`, (r) => r.whole.operationByLink),
      ],
    ),
  );
  console.log(
    `\nwhole ÷ part: first operations ${f(med((r) => r.whole.firstOperations) / med((r) => r.part.firstOperations), 1)}×, by link ${f(med((r) => r.whole.operationByLink) / med((r) => r.part.operationByLink), 1)}×`,
  );
  await writeResults('docs', { settings, runs });
}

runBench('docs', main, async () => {
  await browser?.close().catch(() => {});
  await stack?.stop();
});
