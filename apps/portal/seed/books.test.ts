import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../test/harness';
import { DEMO_YEAR } from './catalogue';
import { DEMO_ADMIN_EMAIL, seedDemo } from './demo';
import { seedDemoRecords } from './demo-records';

/**
 * The demo's books hold every rule of SPEC §17, checked on a seeded tenant through the API an
 * accountant reads them with: each document posted once (and reversed when cancelled), manual
 * entries beside them and never on top, statuses that follow allocations, reports that agree,
 * and a closed month with postings in it.
 */

// biome-ignore lint/suspicious/noExplicitAny: records are read loosely; each assertion states the shape.
type Row = Record<string, any>;

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
const lists = new Map<string, Row[]>();

async function get(path: string): Promise<Row> {
  const res = await portal.json(await portal.request(`/api/v1/${path}`, { headers }));
  expect(res.status, path).toBe(200);
  return res.body;
}

/** Every record of a resource in the demo tenant (all its pages). */
async function list(path: string): Promise<Row[]> {
  const cached = lists.get(path);
  if (cached) return cached;
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const page: Row = await get(
      `${path}?page_size=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    rows.push(...page.data);
    cursor = page.next_cursor ?? null;
  } while (cursor);
  lists.set(path, rows);
  return rows;
}

const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id as string, r]));
const sum = (rows: Row[], field: string) => rows.reduce((s, r) => s + Number(r[field] ?? 0), 0);
const YEAR = { from: `${DEMO_YEAR}-01-01`, to: `${DEMO_YEAR + 1}-12-31` };

beforeAll(async () => {
  portal = await createTestPortal();
  const demo = await seedDemo(portal.tdb.db, 'demo password 123');
  await seedDemoRecords(portal.deps.tenantDb, demo.tenantId, catalogue, 12, [demo.adminId]);
  headers = session(
    (await portal.login(DEMO_ADMIN_EMAIL, 'demo password 123')).access_token,
    'demo',
  );
}, 180_000);
afterAll(() => portal.tdb.close());

describe('the demo books', () => {
  it.each([
    ['invoices', 'invoice_id', ['emis', 'partiellement_paye', 'paye']],
    ['supplier-invoices', 'supplier_invoice_id', ['approuve', 'partiellement_paye', 'paye']],
    ['payments', 'payment_id', ['comptabilise']],
    ['credit-notes', 'credit_note', ['emis', 'partiellement_paye', 'impute']],
    ['debit-notes', 'debit_note', ['emis', 'partiellement_paye', 'impute']],
  ])(
    'posts each of the %s once, and reverses the cancelled ones once',
    async (path, link, posted) => {
      const entries = await list('journal-entries');
      const docs = await list(path);
      // The entry names its document in a column of its own, else by source type and id.
      const names = (e: Row, doc: Row) =>
        link.endsWith('_id')
          ? e[link] === doc.id
          : e.source_type === link && e.source_id === doc.id;
      let reversed = 0;
      for (const doc of docs) {
        const own = entries.filter((e) => names(e, doc) && e.entry_type === 'standard');
        const reversals = entries.filter(
          (e) => e.entry_type === 'reversal' && own.some((o) => o.id === e.reversed_entry_id),
        );
        if (posted.includes(doc.status)) {
          expect(
            own.map((e) => e.status),
            doc.number,
          ).toEqual(['comptabilise']);
          expect(reversals, doc.number).toEqual([]);
        } else if (doc.status === 'annule' && own.length) {
          // Cancelled once posted: the original and its mirror, which net to zero.
          expect(
            own.map((e) => e.status),
            doc.number,
          ).toEqual(['annule']);
          expect(reversals, doc.number).toHaveLength(1);
          expect(sum(reversals[0]!.lines, 'debit_cents')).toBe(sum(own[0]!.lines, 'credit_cents'));
          reversed++;
        } else expect(own, `${doc.number} ${doc.status}`).toEqual([]);
      }
      expect(docs.filter((d) => posted.includes(d.status)).length).toBeGreaterThan(2);
      expect(reversed, path).toBeGreaterThan(0);
    },
  );

  it.each([
    ['invoices', 'invoice_date'],
    ['supplier-invoices', 'invoice_date'],
    ['credit-notes', 'credit_note_date'],
    ['payments', 'paid_on'],
  ])('numbers the %s in the order of their dates', async (path, date) => {
    const docs = [...(await list(path))].sort((a, b) => a.number.localeCompare(b.number));
    const dates = docs.map((d) => d[date]);
    expect(dates.length).toBeGreaterThan(1);
    expect(dates).toEqual([...dates].sort());
  });

  it('balances the trial balance, and the aged receivables and payables are the 411 and 401 balances', async () => {
    const trial = await get(`reports/trial-balance?from=${YEAR.from}&to=${YEAR.to}`);
    expect(trial.totals.debit_cents).toBeGreaterThan(0);
    expect(trial.totals.debit_cents).toBe(trial.totals.credit_cents);
    expect(sum(trial.accounts, 'closing_cents')).toBe(0);
    const closing = (code: string) =>
      sum(
        trial.accounts.filter((a: Row) => a.code === code),
        'closing_cents',
      );
    const receivables = await get(`reports/aged-receivables?at=${YEAR.to}`);
    const payables = await get(`reports/aged-payables?at=${YEAR.to}`);
    expect(closing('411000')).toBeGreaterThan(0);
    expect(receivables.totals.total_cents).toBe(closing('411000'));
    expect(payables.totals.total_cents).toBe(-closing('401000'));
    // Goods sold to 707, services to 706, VAT collected and deductible from the tax records.
    // Write-off to 658, an export paid at another rate to 766 or 666.
    for (const code of ['707000', '706000', '445710', '445660', '512000', '658000'])
      expect(
        trial.accounts.some((a: Row) => a.code === code && a.debit_cents + a.credit_cents > 0),
        code,
      ).toBe(true);
    expect(trial.accounts.some((a: Row) => ['766000', '666000'].includes(a.code))).toBe(true);
  });

  it('exports the demo year’s FEC: one line per posted line of the year', async () => {
    const year = (await list('fiscal-years')).find((y) => y.start_date === YEAR.from)!;
    const res = await portal.request(`/api/v1/reports/fec?fiscal_year_id=${year.id}`, { headers });
    expect(res.status).toBe(200);
    const rows = (await res.text()).trim().split(/\r?\n/).slice(1);
    const posted = (await list('journal-entries')).filter(
      (e) => e.posted_at && e.entry_date >= year.start_date && e.entry_date <= year.end_date,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(
      sum(
        posted.map((e) => ({ n: e.lines.length })),
        'n',
      ),
    );
  });

  it('derives each document’s status from its allocations: paid when they cover its total', async () => {
    const allocations = await list('payment-allocations');
    const seen = new Set<string>();
    for (const [path, field, posted] of [
      ['invoices', 'invoice_id', 'emis'],
      ['supplier-invoices', 'supplier_invoice_id', 'approuve'],
    ] as const) {
      for (const doc of await list(path)) {
        if (![posted, 'partiellement_paye', 'paye'].includes(doc.status)) continue;
        const mine = allocations.filter((a) => a[field] === doc.id);
        const settled = sum(mine, 'amount_cents') + sum(mine, 'write_off_cents');
        expect(doc.amount_due_cents, doc.number).toBe(doc.total_cents - settled);
        const status =
          settled === 0 ? posted : settled === doc.total_cents ? 'paye' : 'partiellement_paye';
        expect(doc.status, doc.number).toBe(status);
        seen.add(status);
      }
    }
    expect([...seen].sort()).toEqual(['approuve', 'emis', 'paye', 'partiellement_paye'].sort());
    // One customer paid 1.50 € short (bank fees): written off, nothing more.
    expect(allocations.filter((a) => a.write_off_cents > 0).map((a) => a.write_off_cents)).toEqual([
      150,
    ]);
    expect(allocations.some((a) => a.credit_note_id)).toBe(true);
    // Posted payments: what their allocations took, never more than their amount; the others
    // settle nothing.
    for (const p of await list('payments')) {
      const mine = allocations.filter((a) => a.payment_id === p.id);
      if (p.status !== 'comptabilise') {
        expect(mine, p.number).toEqual([]);
        continue;
      }
      const taken = sum(mine, 'amount_cents');
      expect([p.allocated_cents, p.unallocated_cents], p.number).toEqual([
        taken,
        p.amount_cents - taken,
      ]);
    }
  });

  it('bills orders that are invoiced: the order’s customer, currency and lines, never a draft', async () => {
    const orders = byId(await list('sales-orders'));
    const invoices = await list('invoices');
    for (const invoice of invoices.filter((i) => i.sales_order_id)) {
      const order = orders.get(invoice.sales_order_id)!;
      expect(order, invoice.number).toBeDefined();
      expect(['brouillon', 'annule']).not.toContain(order.status);
      expect([invoice.customer_id, invoice.currency]).toEqual([order.customer_id, order.currency]);
      expect(invoice.lines.map((l: Row) => [l.product_id, l.quantity, l.unit_price_cents])).toEqual(
        order.lines.map((l: Row) => [l.product_id, l.quantity, l.unit_price_cents]),
      );
      // Issued: the order is invoiced; a draft invoice is being made for a delivered order.
      expect(order.status, invoice.number).toBe(
        invoice.status === 'brouillon' ? 'livre' : 'facture',
      );
    }
    for (const order of orders.values()) {
      if (order.status !== 'facture') continue;
      const billing = invoices.filter(
        (i) => i.sales_order_id === order.id && i.status !== 'annule',
      );
      expect(billing.length, order.number).toBe(1);
    }
    // Lines name their tax; credit notes credit an issued invoice of their customer.
    const taxed = invoices.flatMap((i) => i.lines).filter((l: Row) => l.tax_id);
    expect(taxed.length).toBeGreaterThan(0);
    const byInvoice = byId(invoices);
    for (const note of await list('credit-notes')) {
      const invoice = byInvoice.get(note.invoice_id)!;
      expect(['emis', 'partiellement_paye', 'paye']).toContain(invoice.status);
      expect(note.customer_id).toBe(invoice.customer_id);
    }
  });

  it('enters by hand only what no document posts', async () => {
    const accounts = byId(await list('accounts'));
    const manual = (await list('journal-entries')).filter(
      (e) => !e.invoice_id && !e.supplier_invoice_id && !e.payment_id && !e.source_type,
    );
    expect(manual.filter((e) => e.entry_type !== 'reversal').length).toBe(12);
    for (const entry of manual)
      for (const line of entry.lines) {
        // A receivable or payable line by hand would count a document's debt twice.
        const code = accounts.get(line.account_id)!.code;
        expect(['411000', '401000', '445710', '445660'], entry.number).not.toContain(code);
      }
    expect(manual.some((e) => e.status === 'comptabilise')).toBe(true);
    // The chart is installBooks', not a second one: each code once.
    const codes = [...accounts.values()].map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    const journals = (await list('journals')).map((j) => j.code);
    expect(new Set(journals).size).toBe(journals.length);
  });

  it('closes the first month once its documents are posted, and refuses to post in it', async () => {
    const closed = (await list('accounting-periods')).filter((p) => p.status === 'ferme');
    const january = closed.find((p) => p.start_date === `${DEMO_YEAR}-01-01`)!;
    expect(january).toBeDefined();
    const inJanuary = (await list('journal-entries')).filter(
      (e) => e.posted_at && e.entry_date >= january.start_date && e.entry_date <= january.end_date,
    );
    expect(inJanuary.filter((e) => e.invoice_id).length).toBeGreaterThan(1);
    expect(inJanuary.some((e) => !e.invoice_id && !e.payment_id)).toBe(true);
    const [bank, capital] = ['512000', '101000'].map(
      (code) => lists.get('accounts')!.find((a) => a.code === code)!.id,
    );
    const journal = (await list('journals')).find((j) => j.code === 'OD')!;
    const created = await portal.json(
      await portal.request('/api/v1/journal-entries', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          journal_id: journal.id,
          entry_date: `${DEMO_YEAR}-01-20`,
          entry_type: 'standard',
          currency: 'EUR',
          lines: [
            { account_id: bank, debit_cents: 1000, credit_cents: 0 },
            { account_id: capital, debit_cents: 0, credit_cents: 1000 },
          ],
        }),
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const posted = await portal.json(
      await portal.request(`/api/v1/journal-entries/${created.body.id}/post`, {
        method: 'POST',
        headers,
      }),
    );
    expect([posted.status, posted.body.code]).toEqual([422, 'periode_cloturee']);
  });
});
