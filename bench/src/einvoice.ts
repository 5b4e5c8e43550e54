import { EXAMPLE_COMPANY } from '@erp/contract';
import { ciiSchemaErrors, validator } from '@erp/einvoicing';
import { Pool } from 'undici';
import { createBenchKey, postJson } from './lib/api-key-setup';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { treeCpuMs } from './lib/cpu';
import { f, table } from './lib/report';
import { type BenchStack, startStack } from './lib/stack';
import { median } from './lib/stats';
import { provisionTenants } from './list/dataset';
import { apiClient } from './stock/setup';

/**
 * `pnpm bench einvoice` (SPEC §20): what electronic invoices cost.
 *
 * 1. Documents per second through the real portal: `GET /invoices/{id}/einvoice?format=ubl|cii|
 *    facturx` over N issued invoices of 5 lines, from a few concurrent clients, against the same
 *    invoices' plain JSON `GET /invoices/{id}` (the baseline), interleaved rounds.
 * 2. The official rules' cost per document in-process (`validator.validate`, SaxonJS in its
 *    worker thread) on a UBL and a CII, and the CII's XSD check (`ciiSchemaErrors`): the first
 *    call (loading) and the median after a warm-up.
 * 3. Imports per second (`POST /supplier-invoices/import` of distinct UBL documents: the same
 *    invoice with its number rewritten) against typing the same draft in as JSON
 *    (`POST /supplier-invoices` with the same 5 lines).
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 3),
  clients: envInt('BENCH_CONNECTIONS', 4),
  invoices: envInt('BENCH_EINVOICE_INVOICES', 40),
  validations: envInt('BENCH_EINVOICE_VALIDATIONS', 30),
  portal: process.env.BENCH_PORTAL === 'dist' ? ('dist' as const) : ('source' as const),
};

const COMPANY = EXAMPLE_COMPANY;

const LINES = [1, 2, 3, 4, 5].map((n) => ({
  description: `Article ${n}`,
  quantity: String(n),
  unit_price_cents: 1_000 * n + 5,
  tax_rate: '20',
}));

let stack: BenchStack | undefined;

interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  status: number;
}

/** `clients` keep-alive clients for `ms`, each sending its next request once answered. */
async function burst(origin: string, clients: number, ms: number, next: () => Request) {
  const pool = new Pool(origin, { connections: clients, pipelining: 1 });
  try {
    const started = performance.now();
    const end = started + ms;
    let requests = 0;
    let bytes = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < end) {
          const r = next();
          const res = await pool.request({
            method: r.method,
            path: r.path,
            headers: r.headers ?? {},
            body: r.body ?? null,
          });
          const body = new Uint8Array(await res.body.arrayBuffer());
          if (res.statusCode !== r.status)
            throw new Error(
              `${r.method} ${r.path}: ${res.statusCode} ${new TextDecoder().decode(body).slice(0, 300)}`,
            );
          requests++;
          bytes += body.length;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { requests, seconds, perSecond: requests / seconds, bytesPerDoc: bytes / requests };
  } finally {
    await pool.close();
  }
}
type Burst = Awaited<ReturnType<typeof burst>> & { serverCpuMsPerDoc: number };

/** The same, with the portal's CPU per request. */
async function measured(s: BenchStack, next: () => Request, ms: number): Promise<Burst> {
  const before = treeCpuMs(s.portalPid);
  const result = await burst(s.baseUrl, settings.clients, ms, next);
  return { ...result, serverCpuMsPerDoc: (treeCpuMs(s.portalPid) - before) / result.requests };
}

/** Milliseconds of `work` on the first call, then the median of `n` calls after `warm` more. */
async function perCall(work: () => Promise<unknown>, n: number, warm = 5) {
  let t = performance.now();
  await work();
  const first = performance.now() - t;
  for (let i = 0; i < warm; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { first, median: median(times), min: times[0]!, max: times.at(-1)! };
}

async function main(): Promise<void> {
  log('starting PostgreSQL (durable: fsync on), migrating, seeding, starting the portal…');
  stack = await startStack({ entry: settings.portal, ephemeral: false });
  const s = stack;
  const [sellerTenant, buyerTenant] = await provisionTenants(s.baseUrl, s.internalApiKey, 2);
  const login = await postJson<{ access_token: string }>(`${s.baseUrl}/api/v1/auth/login`, {
    email: sellerTenant!.adminEmail,
    password: sellerTenant!.adminPassword,
  });
  const put = await fetch(`${s.baseUrl}/api/v1/settings/company`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${login.access_token}`,
      'x-tenant': sellerTenant!.slug,
      'content-type': 'application/json',
    },
    body: JSON.stringify(COMPANY),
  });
  if (put.status !== 200)
    throw new Error(`PUT settings/company: ${put.status} ${await put.text()}`);
  const keyOf = async (t: typeof sellerTenant, scopes: string[]) => {
    const key = await createBenchKey(
      s.baseUrl,
      s.databaseUrl,
      { email: t!.adminEmail, password: t!.adminPassword, tenant: t!.slug },
      scopes,
    );
    return { authorization: `Bearer ${key.key}`, 'x-tenant-id': t!.slug };
  };
  const sellerHeaders = await keyOf(sellerTenant, ['accounting:write', 'crm:write']);
  const buyerHeaders = await keyOf(buyerTenant, ['accounting:write', 'purchasing:write']);
  const seller = apiClient(s.baseUrl, sellerHeaders);
  const buyer = apiClient(s.baseUrl, buyerHeaders);

  log(`a tax, a customer, ${settings.invoices} issued invoices of ${LINES.length} lines…`);
  const accounts = (await seller.call('GET', 'accounts?page_size=200')).data as {
    id: string;
    code: string;
  }[];
  const tax = await seller.create('taxes', {
    code: 'TVA-C20',
    name: 'TVA collectée 20 %',
    scope: 'sales',
    tax_kind: 'vat',
    account_id: accounts.find((a) => a.code === '445710')!.id,
    vat_category: 'S',
  });
  await seller.create('tax-rates', {
    tax_id: tax.id,
    name: '20 %',
    rate: '20',
    valid_from: '2014-01-01',
  });
  const customer = await seller.create('customers', {
    name: 'Martin & Fils',
    customer_type: 'company',
    active: true,
    vat_number: 'FR40303265045',
    street: '3 place Bellecour',
    postal_code: '69002',
    city: 'Lyon',
    country_code: 'FR',
  });
  const ids: string[] = [];
  for (let i = 0; i < settings.invoices; i++) {
    const draft = await seller.create('invoices', {
      customer_id: customer.id,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: LINES.map((l) => ({ ...l, tax_id: tax.id })),
    });
    await seller.call('POST', `invoices/${draft.id}/issue`);
    ids.push(draft.id);
  }
  const supplier = await buyer.create('suppliers', {
    name: 'Demo SARL',
    vat_number: COMPANY.vat_number,
  });

  const file = async (id: string, format: string) => {
    const res = await fetch(`${s.baseUrl}/api/v1/invoices/${id}/einvoice?format=${format}`, {
      headers: sellerHeaders,
    });
    if (res.status !== 200) throw new Error(`${format}: ${res.status} ${await res.text()}`);
    return res;
  };
  const ubl = await (await file(ids[0]!, 'ubl')).text();
  const cii = await (await file(ids[0]!, 'cii')).text();
  const number = /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(ubl)![1]!;

  // 2 first: the portal is idle, and the bench process's own first load is measured cold.
  log('the rules in-process: first call, then the median…');
  const ublRules = await perCall(() => validator.validate(ubl), settings.validations);
  const ciiRules = await perCall(() => validator.validate(cii), settings.validations);
  const ciiXsd = await perCall(() => ciiSchemaErrors(cii), settings.validations);
  const fatal = {
    ubl: (await validator.validate(ubl)).fatal.length,
    cii: (await validator.validate(cii)).fatal.length,
    xsd: (await ciiSchemaErrors(cii)).length,
  };
  await validator.close();

  // 1. Downloads.
  type Target = 'json' | 'ubl' | 'cii' | 'facturx';
  const targets: Target[] = ['json', 'ubl', 'cii', 'facturx'];
  let turn = 0;
  const download = (target: Target) => (): Request => {
    const id = ids[turn++ % ids.length]!;
    return {
      method: 'GET',
      path:
        target === 'json'
          ? `/api/v1/invoices/${id}`
          : `/api/v1/invoices/${id}/einvoice?format=${target}`,
      headers: sellerHeaders,
      status: 200,
    };
  };
  log('warming up the downloads (1 s each)…');
  for (const t of targets) await measured(s, download(t), 1_000);
  const downloads: Record<Target, Burst[]> = { json: [], ubl: [], cii: [], facturx: [] };
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 ? targets : [...targets].reverse();
    for (const t of order) {
      const sample = await measured(s, download(t), settings.seconds * 1000);
      downloads[t].push(sample);
      log(`round ${round}: ${t}: ${f(sample.perSecond)}/s`);
    }
  }

  // 3. Imports: each a distinct number (the invoice's BT-1 rewritten), vs the same draft typed in.
  let serial = 0;
  const importRequest = (): Request => ({
    method: 'POST',
    path: '/api/v1/supplier-invoices/import',
    headers: { ...buyerHeaders, 'content-type': 'application/xml' },
    body: ubl.replace(`<cbc:ID>${number}</cbc:ID>`, `<cbc:ID>${number}-B${++serial}</cbc:ID>`),
    status: 201,
  });
  const typedRequest = (): Request => ({
    method: 'POST',
    path: '/api/v1/supplier-invoices',
    headers: { ...buyerHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({
      supplier_id: supplier.id,
      supplier_invoice_number: `${number}-J${++serial}`,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: LINES,
    }),
    status: 201,
  });
  type Write = 'import' | 'typed';
  const writes: Record<Write, Burst[]> = { import: [], typed: [] };
  const writeOf = { import: importRequest, typed: typedRequest };
  log('warming up the imports (1 s each)…');
  for (const w of ['import', 'typed'] as const) await measured(s, writeOf[w], 1_000);
  for (let round = 1; round <= settings.rounds; round++) {
    const order: Write[] = round % 2 ? ['import', 'typed'] : ['typed', 'import'];
    for (const w of order) {
      const sample = await measured(s, writeOf[w], settings.seconds * 1000);
      writes[w].push(sample);
      log(`round ${round}: ${w}: ${f(sample.perSecond)}/s`);
    }
  }
  const mid = (xs: Burst[], pick: (x: Burst) => number) => median(xs.map(pick));
  const base = mid(downloads.json, (x) => x.perSecond);
  const label: Record<Target, string> = {
    json: 'GET /invoices/{id} (JSON, baseline)',
    ubl: 'GET …/einvoice?format=ubl',
    cii: 'GET …/einvoice?format=cii',
    facturx: 'GET …/einvoice?format=facturx (PDF/A-3)',
  };
  const downloadRows = targets.map((t) => [
    label[t],
    f(mid(downloads[t], (x) => x.perSecond)),
    downloads[t].map((x) => f(x.perSecond)).join(' / '),
    f(mid(downloads[t], (x) => x.perSecond) / base, 3),
    f(
      mid(downloads[t], (x) => x.serverCpuMsPerDoc),
      2,
    ),
    f(mid(downloads[t], (x) => x.bytesPerDoc) / 1024, 1),
  ]);
  const typedBase = mid(writes.typed, (x) => x.perSecond);
  const writeRows = (['typed', 'import'] as const).map((w) => [
    w === 'typed'
      ? 'POST /supplier-invoices (JSON draft, baseline)'
      : 'POST /supplier-invoices/import (UBL)',
    f(
      mid(writes[w], (x) => x.perSecond),
      1,
    ),
    writes[w].map((x) => f(x.perSecond, 1)).join(' / '),
    f(mid(writes[w], (x) => x.perSecond) / typedBase, 3),
    f(
      mid(writes[w], (x) => x.serverCpuMsPerDoc),
      2,
    ),
  ]);
  const ruleRows = [
    ['validator.validate(UBL)', ublRules],
    ['validator.validate(CII)', ciiRules],
    ['ciiSchemaErrors(CII)', ciiXsd],
  ].map(([name, r]) => {
    const x = r as Awaited<ReturnType<typeof perCall>>;
    return [name as string, f(x.first, 0), f(x.median, 2), `${f(x.min, 2)}–${f(x.max, 2)}`];
  });
  process.stdout.write(
    [
      `\neinvoice (SPEC §20), ${settings.invoices} issued invoices of ${LINES.length} lines, ${settings.clients} clients, medians of ${settings.rounds} interleaved rounds of ${settings.seconds} s, PostgreSQL durable`,
      table(
        ['download', 'docs/s', 'rounds', '× JSON', 'portal CPU ms/doc', 'KiB/doc'],
        downloadRows,
      ),
      `\nthe rules in-process (this process, SaxonJS in its worker thread), ${settings.validations} calls after 5 warm-up`,
      table(['check', 'first call ms', 'median ms/doc', 'min–max'], ruleRows),
      `fatal failures: UBL ${fatal.ubl}, CII ${fatal.cii}, CII XSD errors ${fatal.xsd} (all 0 expected)`,
      `\nimports, ${settings.clients} clients, distinct numbers (the UBL's BT-1 rewritten), the seller matched by VAT`,
      table(['write', '/s', 'rounds', '× JSON draft', 'portal CPU ms/doc'], writeRows),
      '',
    ].join('\n'),
  );
  await writeResults('einvoice', {
    settings,
    downloads,
    rules: { ubl: ublRules, cii: ciiRules, ciiXsd },
    fatal,
    writes,
  });
  if (fatal.ubl || fatal.cii || fatal.xsd) process.exitCode = 1;
}

runBench('einvoice', main, () => stack?.stop());
