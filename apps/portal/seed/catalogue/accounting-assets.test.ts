import { catalogue, centsNumber, convertCents } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { DEMO_ADMIN_EMAIL, seedDemo } from '../demo';
import { seedDemoRecords, seedOrder } from '../demo-records';
import { depreciationLines } from './assets';
import { seedReads } from './index';

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; each assertion states the shape.
type Row = Record<string, any>;
type Line = Row;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
const lists = new Map<string, Row[]>();

/** Every record of a resource in the demo tenant (the seed makes 12 of each). */
async function list(path: string): Promise<Row[]> {
  const cached = lists.get(path);
  if (cached) return cached;
  const res = await portal.json(await portal.request(`/api/v1/${path}?page_size=200`, { headers }));
  expect(res.status, path).toBe(200);
  lists.set(path, res.body.data);
  return res.body.data;
}

const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id as string, r]));
const sum = (lines: Line[], field: string) => lines.reduce((s, l) => s + Number(l[field]), 0);

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 12, [demo.adminId]);
  headers = session(
    (await portal.login(DEMO_ADMIN_EMAIL, 'demo password 123')).access_token,
    'demo',
  );
}, 120_000);
afterAll(() => portal.tdb.close());

describe('the demo books', () => {
  it('seeds a bank statement after the payments it adds up, and still after what it refers to', () => {
    const order = seedOrder(catalogue, seedReads).map((r) => r.name);
    expect(order.indexOf('bank_statement')).toBeGreaterThan(order.indexOf('payment'));
    expect(order.indexOf('bank_statement')).toBeGreaterThan(order.indexOf('bank_account'));
    expect(order.indexOf('bank_statement')).toBeLessThan(order.indexOf('bank_transaction'));
  });

  it('balances every journal entry and recurring entry: debits equal credits', async () => {
    for (const path of ['journal-entries', 'recurring-entries']) {
      const entries = await list(path);
      // Journal entries: the 12 entered by hand, and those the documents posted.
      const manual = entries.filter(
        (e) => !e.invoice_id && !e.supplier_invoice_id && !e.payment_id && !e.source_type,
      );
      expect(
        manual.filter((e) => e.entry_type !== 'reversal'),
        path,
      ).toHaveLength(12);
      for (const entry of entries) {
        expect(entry.lines.length, entry.id).toBeGreaterThanOrEqual(2);
        expect(sum(entry.lines, 'debit_cents'), `${path} ${entry.number ?? entry.name}`).toBe(
          sum(entry.lines, 'credit_cents'),
        );
        expect(sum(entry.lines, 'debit_cents')).toBeGreaterThan(0);
      }
    }
  });

  it('posts an invoice’s entry for its total, and a payment’s entry for its amount', async () => {
    const invoices = byId(await list('invoices'));
    const payments = byId(await list('payments'));
    // In euros: a foreign document's amount at its own rate (the total's line takes the rounding).
    const inEuros = (doc: Row, cents: number) =>
      doc.currency === 'EUR' ? cents : centsNumber(convertCents(cents, doc.exchange_rate));
    for (const entry of await list('journal-entries')) {
      const debit = sum(entry.lines, 'debit_cents');
      const invoice = invoices.get(entry.invoice_id);
      const payment = payments.get(entry.payment_id);
      if (invoice) expect(debit).toBe(inEuros(invoice, invoice.total_cents));
      if (payment) expect(debit).toBe(inEuros(payment, payment.amount_cents));
    }
  });

  it('puts periods, returns and entries inside their fiscal year and period', async () => {
    const years = byId(await list('fiscal-years'));
    const periods = byId(await list('accounting-periods'));
    for (const period of periods.values()) {
      const year = years.get(period.fiscal_year_id)!;
      expect(period.start_date >= year.start_date && period.end_date <= year.end_date).toBe(true);
      expect(period.start_date <= period.end_date).toBe(true);
    }
    for (const ret of await list('tax-returns')) {
      const year = years.get(ret.fiscal_year_id)!;
      expect(ret.start_date >= year.start_date && ret.end_date <= year.end_date).toBe(true);
    }
    for (const entry of await list('journal-entries')) {
      if (!entry.accounting_period_id) continue;
      const period = periods.get(entry.accounting_period_id)!;
      expect(entry.entry_date >= period.start_date && entry.entry_date <= period.end_date).toBe(
        true,
      );
    }
  });

  it('gives each tax rate to its tax, the 19.6 % rate ended when 20 % began', async () => {
    const taxes = byId(await list('taxes'));
    const rates = await list('tax-rates');
    const normal = rates.filter((r) => taxes.get(r.tax_id)!.code === 'TVA-C20');
    expect(normal.map((r) => [Number(r.rate), r.valid_from, r.valid_until]).sort()).toEqual([
      [19.6, '2000-04-01', '2013-12-31'],
      [20, '2014-01-01', null],
    ]);
    for (const rate of rates) {
      const tax = taxes.get(rate.tax_id)!;
      if (tax.code.includes('20')) expect([20, 19.6]).toContain(Number(rate.rate));
      if (tax.code.includes('EXO') || tax.code.endsWith('-IC')) expect(Number(rate.rate)).toBe(0);
    }
  });

  it('pays issued invoices and approved bills at most their totals; allocations follow payments', async () => {
    const invoices = byId(await list('invoices'));
    const bills = byId(await list('supplier-invoices'));
    const payments = await list('payments');
    for (const p of payments) {
      const doc =
        p.direction === 'incoming' ? invoices.get(p.invoice_id) : bills.get(p.supplier_invoice_id);
      expect(doc, p.number).toBeDefined();
      expect(p.amount_cents).toBeLessThanOrEqual(doc!.total_cents);
      // Posted, and settled in part or in full by allocations (SPEC §17's derived statuses).
      expect(['emis', 'approuve', 'partiellement_paye', 'paye']).toContain(doc!.status);
      expect(p.customer_id ?? p.supplier_id).toBe(doc!.customer_id ?? doc!.supplier_id);
      expect(p.paid_on >= doc!.invoice_date).toBe(true);
    }
    // Allocations apply a posted payment to its own posted document: the payment's allocated
    // amount and the document's amount due follow their sum (never more than either has).
    const byPayment = byId(payments);
    const allocated = new Map<string, number>();
    const settled = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const allocations = await list('payment-allocations');
    expect(allocations.length).toBeGreaterThan(0);
    for (const a of allocations) {
      // A credit (debit) note settles its own invoice; a write-off settles what is left.
      add(
        settled,
        a.invoice_id ?? a.supplier_invoice_id,
        a.amount_cents + (a.write_off_cents ?? 0),
      );
      if (!a.payment_id) continue;
      const p = byPayment.get(a.payment_id)!;
      expect(p.status, p.number).toBe('comptabilise');
      expect([a.invoice_id, a.supplier_invoice_id]).toEqual([p.invoice_id, p.supplier_invoice_id]);
      add(allocated, p.id, a.amount_cents);
    }
    for (const p of payments) expect(p.allocated_cents, p.number).toBe(allocated.get(p.id) ?? 0);
    for (const doc of [...invoices.values(), ...bills.values()]) {
      if (!['emis', 'approuve', 'partiellement_paye', 'paye'].includes(doc.status)) continue;
      expect(doc.amount_due_cents, doc.number).toBe(doc.total_cents - (settled.get(doc.id) ?? 0));
    }
  });

  it('carries posted payments and bank entries on bank transactions, and statements add their transactions up', async () => {
    const payments = byId(await list('payments'));
    const entries = byId(await list('journal-entries'));
    const bank = (await list('accounts')).find((a) => a.code === '512000')!;
    const transactions = await list('bank-transactions');
    let matched = 0;
    for (const t of transactions) {
      // A reconciled line names what it is matched with; what it names is posted.
      if (t.status === 'rapproche') expect(t.payment_id ?? t.journal_entry_id, t.id).toBeTruthy();
      if (t.status === 'annule') expect(t.bank_statement_id).toBeNull();
      const p = payments.get(t.payment_id);
      const e = entries.get(t.journal_entry_id);
      if (p) {
        expect(p.status).toBe('comptabilise');
        expect(t.amount_cents).toBe(p.direction === 'incoming' ? p.amount_cents : -p.amount_cents);
        expect([t.transaction_date, t.bank_account_id]).toEqual([p.paid_on, p.bank_account_id]);
      }
      if (e) {
        expect(e.status).toBe('comptabilise');
        const onBank = e.lines.filter((l: Line) => l.account_id === bank.id);
        expect(t.amount_cents).toBe(sum(onBank, 'debit_cents') - sum(onBank, 'credit_cents'));
        expect(t.transaction_date).toBe(e.entry_date);
      }
      matched += p || e ? 1 : 0;
    }
    expect(matched).toBeGreaterThan(transactions.length / 2);
    const statements = (await list('bank-statements')).sort((a, b) =>
      a.start_date.localeCompare(b.start_date),
    );
    let withTransactions = 0;
    for (const [i, s] of statements.entries()) {
      const mine = transactions.filter((t) => t.bank_statement_id === s.id);
      withTransactions += mine.length ? 1 : 0;
      for (const t of mine)
        expect(t.transaction_date >= s.start_date && t.transaction_date <= s.end_date).toBe(true);
      expect(s.closing_balance_cents - s.opening_balance_cents, s.number).toBe(
        sum(mine, 'amount_cents'),
      );
      if (i > 0) expect(s.opening_balance_cents).toBe(statements[i - 1]!.closing_balance_cents);
    }
    expect(withTransactions).toBeGreaterThan(1);
  });

  it('totals payment orders, reminders and tax returns from their lines', async () => {
    for (const o of await list('payment-orders'))
      expect(o.total_amount_cents).toBe(sum(o.lines, 'amount_cents'));
    for (const r of await list('payment-reminders'))
      expect(r.amount_due_cents).toBe(sum(r.lines, 'amount_due_cents'));
    let taxed = 0;
    for (const t of await list('tax-returns')) {
      const output = sum(
        t.lines.filter((l: Line) => l.box_code !== '20'),
        'tax_amount_cents',
      );
      expect([t.output_tax_cents, t.net_due_cents]).toEqual([output, output - t.input_tax_cents]);
      taxed += output;
    }
    expect(taxed).toBeGreaterThan(0);
  });

  it('spreads each asset’s cost less residual value over its schedule, and posts its lines', async () => {
    const assets = byId(await list('assets'));
    const schedules = byId(await list('depreciation-schedules'));
    let depreciated = 0;
    for (const s of schedules.values()) {
      const asset = assets.get(s.asset_id)!;
      expect(s.depreciable_cents).toBe(asset.acquisition_cost_cents - asset.residual_value_cents);
      if (s.depreciable_cents === 0) continue;
      depreciated++;
      expect(sum(s.lines, 'depreciation_cents'), asset.name).toBe(s.depreciable_cents);
      const last = s.lines.at(-1);
      expect(last.book_value_cents).toBe(asset.residual_value_cents);
      expect(last.accumulated_cents).toBe(s.depreciable_cents);
    }
    expect(depreciated).toBeGreaterThanOrEqual(10);
    for (const e of await list('depreciation-entries')) {
      const s = schedules.get(e.depreciation_schedule_id)!;
      expect(e.asset_id).toBe(s.asset_id);
      expect(s.lines).toContainEqual(
        expect.objectContaining({
          schedule_date: e.entry_date,
          depreciation_cents: e.amount_cents,
          accumulated_cents: e.accumulated_cents,
          book_value_cents: e.book_value_cents,
        }),
      );
    }
    for (const d of await list('asset-disposals'))
      expect(d.gain_loss_cents).toBe(d.proceeds_cents - d.book_value_cents);
    for (const r of await list('asset-revaluations'))
      expect(r.adjustment_cents).toBe(r.new_value_cents - r.previous_value_cents);
  });

  it('raises preventive requests from plans of the same asset, and counts the assets of a place', async () => {
    const plans = byId(await list('maintenance-plans'));
    for (const r of await list('maintenance-requests'))
      if (r.maintenance_plan_id)
        expect(r.asset_id).toBe(plans.get(r.maintenance_plan_id)!.asset_id);
    const assets = byId(await list('assets'));
    for (const c of await list('asset-counts')) {
      expect(c.lines.length).toBeGreaterThan(0);
      for (const l of c.lines) expect(assets.get(l.asset_id)!.location_id).toBe(c.location_id);
    }
  });
});

describe('depreciationLines', () => {
  it('depreciates straight-line pro rata, the last line taking the rounding', () => {
    const lines = depreciationLines({
      method: 'straight_line',
      costCents: 100_000,
      residualCents: 10_000,
      startDate: '2026-04-01',
      lifeMonths: 36,
    });
    expect(lines.map((l) => [l.schedule_date, l.depreciation_cents])).toEqual([
      ['2026-12-31', 22_500],
      ['2027-12-31', 30_000],
      ['2028-12-31', 30_000],
      ['2029-12-31', 7_500],
    ]);
    expect(lines.at(-1)!.book_value_cents).toBe(10_000);
  });

  it('depreciates declining balance, switching to straight-line, summing to the depreciable value', () => {
    const lines = depreciationLines({
      method: 'declining_balance',
      costCents: 1_000_000,
      residualCents: 0,
      startDate: '2026-01-01',
      lifeMonths: 60,
      decliningRate: 35,
    });
    // 35 % of what remains, until a fifth of the remaining life is more.
    expect(lines.map((l) => l.depreciation_cents)).toEqual([
      350_000, 227_500, 147_875, 137_313, 137_312,
    ]);
    expect(sum(lines, 'depreciation_cents')).toBe(1_000_000);
  });

  it('does not depreciate land', () => {
    expect(
      depreciationLines({
        method: 'none',
        costCents: 5_000_000,
        residualCents: 0,
        startDate: '2026-01-01',
        lifeMonths: 1200,
      }),
    ).toEqual([]);
  });
});
