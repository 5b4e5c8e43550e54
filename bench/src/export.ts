import { existsSync } from 'node:fs';
import type { ExportFormat } from '@erp/contract';
import pg from 'pg';
// The portal's own engine (bench is a tool, not an app): the statements are the ones it sends.
import { streamCopy } from '../../apps/portal/src/resources/copy-stream';
import {
  csvHeader,
  exportSql,
  parseListQuery,
  selectList,
  wholeRecord,
} from '../../apps/portal/src/resources/read';
import type { HeldTransaction } from '../../apps/portal/src/resources/tenant-database';
import { httpExport, inProcess, psqlCopy, rssKiB, type Transfer } from './export/readers';
import { createBenchKey } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { f, table } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';
import { median } from './lib/stats';
import { loadSalesOrders, provisionTenants } from './list/dataset';
import { resourceNamed } from './list/list-statement';

/**
 * `pnpm bench export`: `GET /api/v1/sales-orders/export` of a million sales orders through the
 * real portal, against PostgreSQL's own `COPY … TO STDOUT` of the same rows (psql) and the
 * portal's COPY stream read in this process (no HTTP); the portal's resident set sampled
 * throughout. See README.md.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 2),
  rows: envInt('BENCH_ROWS', 1_000_000),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
  ephemeral: process.env.BENCH_PG_EPHEMERAL === '1',
  psql: process.env.BENCH_PSQL ?? '/usr/bin/psql',
};
// The bar: the portal's resident set grows by less than this while it streams.
const RSS_BAR_MB = 50;
const MB = 1024 * 1024;

let stack: BenchStack | undefined;

async function main(): Promise<void> {
  const durability = settings.ephemeral ? 'ephemeral: fsync off' : 'durable: fsync on';
  log(`starting PostgreSQL (${durability}), migrating, seeding, starting the portal…`);
  stack = await startStack({ entry: settings.portal, ephemeral: settings.ephemeral });
  const s = stack;
  const rssAfterStartKiB = rssKiB(s.portalPid);
  const [tenant] = await provisionTenants(s.baseUrl, s.internalApiKey, 1);
  log(`loading ${settings.rows} sales orders into ${tenant!.slug} (generate_series)…`);
  const data = await loadSalesOrders(s.databaseUrl, [tenant!.id], settings.rows);
  log(`  ${data.salesOrders} sales orders in ${data.seconds.toFixed(1)} s`);
  const key = await createBenchKey(s.baseUrl, s.databaseUrl, {
    email: tenant!.adminEmail,
    password: tenant!.adminPassword,
    tenant: tenant!.slug,
  });
  const headers = { authorization: `Bearer ${key.key}`, 'x-tenant-id': tenant!.slug };
  const resource = resourceNamed('sales_order');
  const url = (format: ExportFormat, query = '') =>
    `${s.baseUrl}/api/v1/${resource.path}/export?format=${format}${query}`;
  const pids = { server: s.portalPid, postmaster: s.postmasterPid };

  // The portal's statements, and COPY of the same rows (the tenant inlined: COPY takes no parameters).
  const query = parseListQuery(resource, {});
  const shape = wholeRecord(resource);
  const statement = (format: ExportFormat) => exportSql(resource, tenant!.id, query, shape, format);
  const inline = (text: string) => text.replace('$1::uuid', `'${tenant!.id}'::uuid`);
  const ndjson = statement('ndjson');
  const where = inline(ndjson.text.slice(ndjson.text.indexOf(' WHERE ')));
  const copies: Record<ExportFormat, string> = {
    ndjson: `COPY (${inline(ndjson.text)}) TO STDOUT`,
    csv: `COPY (SELECT ${selectList(resource, 't')} FROM ${resource.table} t${where}) TO STDOUT (FORMAT csv, HEADER)`,
  };
  const psql = existsSync(settings.psql) ? settings.psql : undefined;
  if (!psql)
    log(`no ${settings.psql}: the COPY baseline is skipped (apt-get install postgresql-client)`);

  // The portal's COPY stream in this process, as the portal runs it (erp_app, the tenant set).
  const direct = new pg.Client({ connectionString: s.databaseUrl });
  await direct.connect();
  s.onStop(() => direct.end());
  await direct.query('SET ROLE erp_app');
  const openDirect = async () => {
    await direct.query(
      `BEGIN READ ONLY; SELECT set_config('app.tenant_id', '${tenant!.id}', true)`,
    );
    const held = {
      client: direct,
      end: () => direct.query('ROLLBACK').then(() => {}),
      abort: () => Promise.reject(new Error('the benchmark reads every row')),
    } as unknown as HeldTransaction;
    return streamCopy(
      held,
      { text: ndjson.text, values: ndjson.params.values },
      { head: '', separator: '\n' },
    );
  };

  log('warming up (a one-row export of each format), checking the rows…');
  for (const format of ['ndjson', 'csv'] as const)
    await httpExport(url(format, `&number=eq.${encodeURIComponent('SO-0')}`), headers, pids);
  const rssAtStartKiB = rssKiB(s.portalPid);

  type Target = { name: string; format: ExportFormat; run: () => Promise<Transfer> };
  const targets: Target[] = [
    ...(psql
      ? [
          {
            name: 'COPY ndjson (psql)',
            format: 'ndjson' as const,
            run: () => psqlCopy(s.databaseUrl, copies.ndjson, pids, psql),
          },
        ]
      : []),
    {
      name: 'stream ndjson (in-process)',
      format: 'ndjson',
      run: () => inProcess(openDirect, pids),
    },
    {
      name: 'portal ndjson',
      format: 'ndjson',
      run: () => httpExport(url('ndjson'), headers, pids),
    },
    ...(psql
      ? [
          {
            name: 'COPY csv (psql)',
            format: 'csv' as const,
            run: () => psqlCopy(s.databaseUrl, copies.csv, pids, psql),
          },
        ]
      : []),
    { name: 'portal csv', format: 'csv', run: () => httpExport(url('csv'), headers, pids) },
  ];
  const results = new Map<string, Transfer[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const target of targets) {
      log(`  round ${round + 1}/${settings.rounds}: ${target.name}…`);
      const transfer = await target.run();
      const expected = settings.rows + (target.format === 'csv' ? 1 : 0);
      if (transfer.lines !== expected)
        throw new Error(`${target.name}: ${transfer.lines} lines, expected ${expected}`);
      results.get(target.name)!.push(transfer);
    }
  }
  const portalNdjson = results.get('portal ndjson')!;
  const inProcessNdjson = results.get('stream ndjson (in-process)')!;
  if (portalNdjson.some((t) => t.bytes !== inProcessNdjson[0]!.bytes))
    throw new Error('the portal and the in-process stream did not send the same bytes');
  const header = csvHeader(shape);

  const summary = targets.map((t) => {
    const runs = results.get(t.name)!;
    const seconds = median(runs.map((r) => r.seconds));
    const growth = runs
      .filter((r) => r.rssPeakKiB !== undefined)
      .map((r) => (r.rssPeakKiB! - r.rssBeforeKiB!) / 1024);
    return {
      name: t.name,
      format: t.format,
      rowsPerSecond: settings.rows / seconds,
      seconds,
      mbPerSecond: median(runs.map((r) => r.bytes / MB / r.seconds)),
      bytes: runs[0]!.bytes,
      serverCpuUsPerRow: median(runs.map((r) => (r.serverCpuMs * 1000) / settings.rows)),
      postgresCpuUsPerRow: median(runs.map((r) => (r.postgresCpuMs * 1000) / settings.rows)),
      othersCpuPct: median(runs.map((r) => r.othersCpuPct)),
      rssGrowthMb: growth.length ? Math.max(...growth) : Number.NaN,
      rounds: runs,
    };
  });
  const baseOf = (format: ExportFormat) =>
    summary.find((r) => r.format === format && r.name.startsWith('COPY')) ??
    summary.find((r) => r.name.startsWith('stream'))!;

  console.log(
    `\nexport of ${settings.rows} sales orders (${data.salesOrders} loaded, one tenant), medians of ${settings.rounds} round(s); PostgreSQL ${s.postgresVersion}, ${durability}; CSV header: ${header.split(',').length} columns\n`,
  );
  console.log(
    table(
      [
        'target',
        'rows/s',
        '× COPY',
        's',
        'MB/s',
        'MB',
        'server CPU µs/row',
        'PG CPU µs/row',
        "others' CPU %",
        'RSS growth MB',
      ],
      summary.map((r) => [
        r.name,
        f(r.rowsPerSecond),
        f(r.rowsPerSecond / baseOf(r.format).rowsPerSecond, 2),
        f(r.seconds, 1),
        f(r.mbPerSecond, 1),
        f(r.bytes / MB, 0),
        f(r.serverCpuUsPerRow, 1),
        f(r.postgresCpuUsPerRow, 1),
        f(r.othersCpuPct),
        f(r.rssGrowthMb, 1),
      ]),
    ),
  );
  const portalRows = summary.filter((r) => r.name.startsWith('portal'));
  const worst = Math.max(...portalRows.map((r) => r.rssGrowthMb));
  const streamRow = summary.find((r) => r.name.startsWith('stream'))!;
  console.log(
    `\nportal ndjson ÷ stream in-process: ${f(portalRows[0]!.rowsPerSecond / streamRow.rowsPerSecond, 2)} (what HTTP, Hono and the socket cost on top of the same stream code)`,
  );
  console.log(
    `portal RSS: ${f(rssAfterStartKiB / 1024, 1)} MB after start, ${f(rssAtStartKiB / 1024, 1)} MB after the warm-up; largest growth during an export ${f(worst, 1)} MB (bar: < ${RSS_BAR_MB} MB): ${worst < RSS_BAR_MB ? 'met' : 'NOT MET'}`,
  );
  await writeResults('export', { settings, data, rssAfterStartKiB, rssAtStartKiB, summary });
}

runBench('export', main, () => stack?.stop());
