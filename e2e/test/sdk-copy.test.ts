/**
 * The sdk as an integrator uses it: `packages/sdk/src` copied into a fresh project outside
 * the workspace, type-checked under strict settings with only the DOM library (no Node
 * types, no install: the sdk has no dependency), compiled by tsc, and run by plain Node
 * against the real portal.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './platform';
import { createApiKey } from './sdk-api-key';

const run = promisify(execFile);
const SDK_SOURCE = path.resolve(import.meta.dirname, '../../packages/sdk/src');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const RATE_LIMIT = 20;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    outDir: 'dist',
  },
  include: ['*.ts', 'sdk'],
};

// What an integrator writes: filters with awkward values, pages, a create and a typed error.
const CRUD = `
import { createClient, eq, gt, ilike, in_, order } from './sdk/index.js';
import { config } from './config.js';

const client = createClient(config);
const names = [
  \`\${config.marker} Dupont & Fils (Lyon), "SARL" n°1.\`,
  \`\${config.marker} O'Brien\\\\Sons: 50% + 1\`,
  \`\${config.marker} plain\`,
];
const created: string[] = [];
for (const name of names) {
  const { data, error } = await client.post('/api/v1/customers', {
    body: { name, customer_type: 'company', active: true },
  });
  if (error) throw error;
  created.push(data.id);
}
const listed = await client.get('/api/v1/customers', {
  query: { name: in_([names[0]!, names[1]!]), order: order('name', 'desc') },
});
if (listed.error) throw listed.error;
const exact = await client.get('/api/v1/customers', { query: { name: eq(names[0]!) } });
if (exact.error) throw exact.error;

const paged: string[] = [];
let pages = 0;
for await (const page of client.pages('/api/v1/customers', {
  query: { name: ilike(\`\${config.marker}*\`), order: order('name'), page_size: 1 },
})) {
  if (page.error) throw page.error;
  pages++;
  paged.push(...page.data.data.map((customer) => customer.name));
}
const all: string[] = [];
for await (const customer of client.paginate('/api/v1/customers', {
  query: { name: ilike(\`\${config.marker}*\`), page_size: 2 },
})) {
  all.push(customer.id);
}
const invalid = await client.get('/api/v1/customers', { query: { created_at: gt('yesterday') } });

console.log(JSON.stringify({
  created,
  listed: listed.data.data.map((customer) => customer.name),
  exact: exact.data.data.map((customer) => customer.id),
  paged,
  pages,
  all,
  invalid: invalid.error?.toJSON(),
}));
`;

// Counts every answer through the client's fetch option, to show the 429 it retried.
const RATE_LIMITED = `
import { createClient } from './sdk/index.js';
import { config } from './config.js';

const statuses: number[] = [];
const client = createClient({
  ...config,
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  },
});
const started = Date.now();
const { data, error } = await client.post('/api/v1/customers', {
  body: { name: \`\${config.marker} after a 429\`, customer_type: 'individual', active: true },
});
console.log(JSON.stringify({ statuses, waitedMs: Date.now() - started, id: data?.id, error: error?.toJSON() }));
`;

let platform: Platform;
let project: string;
let apiKey: { id: string; key: string };
const marker = `sdk-copy-${Date.now()}`;

beforeAll(async () => {
  platform = await startPlatform();
  apiKey = await createApiKey(platform, ['crm:read', 'crm:write'], RATE_LIMIT);
  project = await mkdtemp(path.join(tmpdir(), 'sdk-integrator-'));
  await cp(SDK_SOURCE, path.join(project, 'sdk'), { recursive: true });
  const config = { baseUrl: platform.portalUrl, apiKey: apiKey.key, tenantId: 'demo', marker };
  await Promise.all([
    writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ type: 'module', private: true }),
    ),
    writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG)),
    writeFile(
      path.join(project, 'config.ts'),
      `export const config = ${JSON.stringify(config)};\n`,
    ),
    writeFile(path.join(project, 'crud.ts'), CRUD),
    writeFile(path.join(project, 'rate-limited.ts'), RATE_LIMITED),
  ]);
});
afterAll(async () => {
  await platform?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

async function runExample(name: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [path.join(project, 'dist', `${name}.js`)], {
    cwd: project,
    timeout: 30_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('the sdk copied into an integrator’s project', () => {
  it('type-checks under strict settings and compiles with tsc alone', async () => {
    expect(project.startsWith(path.resolve(import.meta.dirname, '../..'))).toBe(false);
    // The generated types are large: tsc takes minutes on a loaded machine. Killed by the
    // timeout, it printed nothing and emitted nothing: that is a failure, not a clean check.
    const { stdout } = await run(process.execPath, [TSC, '-p', project], {
      timeout: 300_000,
    }).catch((error: { stdout: string; signal: string | null }) => {
      if (error.signal) throw new Error(`tsc was stopped (${error.signal})`);
      return { stdout: error.stdout };
    });
    expect(stdout).toBe('');
  }, 330_000);

  it('lists with filters, paginates and creates against the portal', async () => {
    const report = await runExample('crud');
    const created = report.created as string[];
    expect(created).toHaveLength(3);
    expect(report.listed).toEqual([
      `${marker} O'Brien\\Sons: 50% + 1`,
      `${marker} Dupont & Fils (Lyon), "SARL" n°1.`,
    ]);
    expect(report.exact).toEqual([created[0]]);
    expect(report.pages).toBeGreaterThanOrEqual(3);
    expect(report.paged).toEqual([...(report.paged as string[])].sort());
    expect(report.paged).toHaveLength(3);
    expect([...(report.all as string[])].sort()).toEqual([...created].sort());
    expect(report.invalid).toMatchObject({ code: 'filtre_invalide', status: 400 });
  });

  it('retries a real 429 after Retry-After and then creates', async () => {
    // Spend the key's budget, then date the spent units 59 s back in the limiter's ring so
    // that they come back in about 2 s rather than a minute (the window is fixed at 60 s).
    let status = 0;
    for (let i = 0; i <= RATE_LIMIT && status !== 429; i++) {
      const response = await fetch(`${platform.portalUrl}/api/v1/customers?page_size=1`, {
        headers: { authorization: `Bearer ${apiKey.key}`, 'x-tenant-id': 'demo' },
      });
      status = response.status;
      await response.arrayBuffer();
    }
    expect(status).toBe(429);
    const aged = await sql`
      UPDATE rate_limit_buckets b
         SET head = s.slot - 59,
             oldest = s.slot - 59,
             total = ${RATE_LIMIT}::int,
             counts = (SELECT array_agg(CASE WHEN i = (s.slot - 59) % 61 + 1 THEN ${RATE_LIMIT}::int ELSE 0 END ORDER BY i)
                         FROM generate_series(1, 61) AS i)
        FROM (SELECT floor(extract(epoch FROM clock_timestamp()))::bigint AS slot) s
       WHERE b.key = ${`key:${apiKey.id}`}
    `.execute(platform.db.db);
    expect(Number(aged.numAffectedRows)).toBe(1);

    const report = await runExample('rate-limited');
    expect(report.error).toBeUndefined();
    expect(report.id).toEqual(expect.any(String));
    const statuses = report.statuses as number[];
    expect(statuses[0]).toBe(429);
    expect(statuses.at(-1)).toBe(201);
    expect(report.waitedMs).toBeGreaterThanOrEqual(500);
  });
});
