import { catalogue } from '@erp/contract';
import pg from 'pg';
import { installBooks } from '../../apps/portal/src/books';
import { trialBalance } from '../../apps/portal/src/books/trial-balance';
import {
  createTenantDatabase,
  insertRecord,
  runOperation,
  type TenantDatabase,
  transitionRecord,
} from '../../apps/portal/src/resources';
import { envInt, log, runBench, writeResults } from './lib/cli';
import { type BenchDatabase, startDatabase } from './lib/database';
import { f, table } from './lib/report';
import { median } from './lib/stats';

/**
 * `pnpm bench ledger` (issue 26): what the books cost.
 *
 * 1. Invoices issued per second with their postings (the engine's `issue`: the transition, the
 *    posting context, the entry written through the engine and posted, the database's checks,
 *    ledger lines and monthly balances) ÷ the same issue as a bare status change (the
 *    transition alone, as before the books). Concurrent writers, one tenant each, one
 *    transaction per issue, against a real PostgreSQL; rounds interleaved; medians.
 * 2. The trial balance over a million posted lines ÷ a bare `SUM … GROUP BY account` over the
 *    same lines: whole months come from the monthly balances the posting keeps.
 */
const settings = {
  rounds: envInt('BENCH_ROUNDS', 3),
  seconds: envInt('BENCH_SECONDS', 4),
  writers: envInt('BENCH_CONNECTIONS', 8),
  lines: envInt('BENCH_LEDGER_LINES', 1_000_000),
  reports: envInt('BENCH_REPORT_RUNS', 7),
  /** Drafts made per writer before each round: more than it can issue in the round. */
  drafts: envInt('BENCH_LEDGER_DRAFTS', 1_000),
};
const invoices = catalogue.find((r) => r.name === 'invoice')!;
const customers = catalogue.find((r) => r.name === 'customer')!;
const actor = { type: 'user' as const, id: '00000000-0000-0000-0000-000000000000' };

let database: BenchDatabase | undefined;
let tenantDb: TenantDatabase | undefined;

async function main(): Promise<void> {
  log('starting PostgreSQL (durable) and migrating…');
  database = await startDatabase('erp_bench', false);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  tenantDb = createTenantDatabase({ url: database.url, max: settings.writers + 2 });
  const db = tenantDb;
  const tenants: { id: string; customer: string; drafts: string[] }[] = [];
  for (let i = 0; i < settings.writers; i++) {
    const { rows } = await admin.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, modules) VALUES ($1, $1, '{accounting,crm,sales}') RETURNING id`,
      [`ledger-${i}`],
    );
    const id = rows[0]!.id;
    await db.transaction(id, (c) => installBooks(c, id, new Date('2026-06-15')));
    const customer = await db.transaction(id, (c) =>
      insertRecord(
        c,
        customers,
        id,
        { name: `Client ${i}`, customer_type: 'company', active: true },
        actor,
      ),
    );
    tenants.push({ id, customer: (JSON.parse(customer.json) as { id: string }).id, drafts: [] });
  }

  const variants = ['with postings', 'bare status change'] as const;
  const rates: Record<(typeof variants)[number], number[]> = {
    'with postings': [],
    'bare status change': [],
  };
  for (let round = 1; round <= settings.rounds; round++) {
    for (const variant of round % 2 ? variants : [...variants].reverse()) {
      // Enough drafts for a round, made before the clock starts.
      for (const t of tenants) t.drafts = await drafts(db, t, settings.drafts);
      const { issued, seconds } = await timed(settings.seconds * 1000, tenants, (t, id) =>
        db.transaction<unknown>(t.id, (client) =>
          variant === 'bare status change'
            ? transitionRecord(client, invoices, t.id, id, 'issue', actor)
            : runOperation(
                client,
                t.id,
                { kind: 'action', resource: invoices, id, action: 'issue' },
                actor,
              ),
        ),
      );
      rates[variant].push(issued / seconds);
      log(`round ${round}: ${variant}: ${f(issued / seconds)} issues/s`);
    }
  }

  log(`\n${settings.lines.toLocaleString('en')} posted lines for one tenant…`);
  const big = tenants[0]!;
  const entries = Math.ceil(settings.lines / 10);
  const accounts = await db.run(big.id, async (c) =>
    // Not the receivable and payable accounts: their lines name their party (SPEC §17).
    (
      await c.query<{ id: string }>(
        `SELECT id FROM accounts WHERE tenant_id = $1
            AND sub_type IS DISTINCT FROM 'receivable' AND sub_type IS DISTINCT FROM 'payable'
          ORDER BY code`,
        [big.id],
      )
    ).rows.map((r) => r.id),
  );
  const journal = await db.run(
    big.id,
    async (c) =>
      (
        await c.query<{ id: string }>(
          `SELECT id FROM journals WHERE tenant_id = $1 AND code = 'OD'`,
          [big.id],
        )
      ).rows[0]!.id,
  );
  const batch = 5_000;
  for (let done = 0; done < entries; done += batch) {
    await db.transaction(big.id, (c) =>
      c.query(
        `INSERT INTO journal_entries (tenant_id, number, journal_id, entry_date, entry_type, currency, status, posted_at, lines)
         SELECT $1, 'B-' || g, $2, make_date(2025 + (g % 2), 1 + (g % 12), 1 + (g % 28)), 'standard', 'EUR', 'comptabilise', now(),
                (SELECT jsonb_agg(jsonb_build_object('account_id', ($3::uuid[])[1 + ((g + k) % array_length($3::uuid[], 1))],
                   'debit_cents', CASE WHEN k % 2 = 0 THEN 100 + k ELSE 0 END,
                   'credit_cents', CASE WHEN k % 2 = 1 THEN 100 + k - 1 ELSE 0 END))
                   FROM generate_series(0, 9) k)
           FROM generate_series($4::int, $5::int) g`,
        [big.id, journal, accounts, done, Math.min(done + batch, entries) - 1],
      ),
    );
  }
  const counted = await db.run(big.id, async (c) =>
    Number(
      (await c.query('SELECT count(*) FROM ledger_lines WHERE tenant_id = $1', [big.id])).rows[0]
        .count,
    ),
  );
  log(`${counted.toLocaleString('en')} ledger lines`);
  const report: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < settings.reports; i++) {
    report.push(
      await ms(() =>
        db.run(big.id, (c) =>
          trialBalance(c, big.id, { from: '2025-01-01', to: '2026-12-31' }, new Date()),
        ),
      ),
    );
    bare.push(
      await ms(() =>
        db.run(big.id, (c) =>
          c.query(
            `SELECT account_id, sum(debit_cents), sum(credit_cents) FROM ledger_lines
              WHERE tenant_id = $1 AND entry_date BETWEEN '2025-01-01' AND '2026-12-31' GROUP BY account_id`,
            [big.id],
          ),
        ),
      ),
    );
  }
  await admin.end();

  const withPostings = median(rates['with postings']);
  const statusOnly = median(rates['bare status change']);
  const reportMs = median(report);
  const bareMs = median(bare);
  process.stdout.write(
    `\nledger (issue 26), medians of ${settings.rounds} rounds of ${settings.seconds} s, ${settings.writers} writers (a tenant each)\n${table(
      ['what', 'measured', 'baseline (same run)', 'ratio', 'bar'],
      [
        [
          'invoices issued per second with their postings',
          f(withPostings),
          `${f(statusOnly)} bare status change`,
          f(withPostings / statusOnly, 2),
          '≥ 0.6',
        ],
        [
          `trial balance over ${counted.toLocaleString('en')} posted lines (ms, median of ${settings.reports})`,
          f(reportMs, 1),
          `${f(bareMs, 1)} bare SUM … GROUP BY account`,
          `${f(bareMs / reportMs, 1)} × faster`,
          '≥ 1',
        ],
      ],
    )}\n`,
  );
  await writeResults('ledger', { settings, rates, report, bare, lines: counted });
}

async function drafts(db: TenantDatabase, t: { id: string; customer: string }, n: number) {
  return db.transaction(t.id, async (client) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const written = await insertRecord(
        client,
        invoices,
        t.id,
        {
          customer_id: t.customer,
          invoice_date: '2026-06-15',
          due_date: '2026-07-15',
          currency: 'EUR',
          lines: [
            { description: 'Article', quantity: '2', unit_price_cents: 14_900, tax_rate: '20' },
            { description: 'Service', quantity: '1', unit_price_cents: 5_000, tax_rate: '5.5' },
          ],
        },
        actor,
      );
      ids.push((JSON.parse(written.json) as { id: string }).id);
    }
    return ids;
  });
}

/**
 * Issues as many drafts as the writers can in `ms`; returns how many were issued and in how long
 * (less than `ms` if a writer ran out of drafts: then the others stop too, and the rate stays
 * the rate of all writers at once).
 */
async function timed<T extends { drafts: string[] }>(
  ms: number,
  tenants: T[],
  issue: (t: T, id: string) => Promise<unknown>,
): Promise<{ issued: number; seconds: number }> {
  const started = performance.now();
  let end = started + ms;
  let count = 0;
  await Promise.all(
    tenants.map(async (t) => {
      while (performance.now() < end) {
        const id = t.drafts.pop();
        if (!id) {
          end = Math.min(end, performance.now());
          break;
        }
        await issue(t, id);
        count++;
      }
    }),
  );
  return { issued: count, seconds: (Math.min(end, performance.now()) - started) / 1000 };
}

async function ms(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

runBench('ledger', main, async () => {
  await tenantDb?.close();
  await database?.stop();
});
