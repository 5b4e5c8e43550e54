import { CONVERT, resourceNamed } from '../goods';
import { DEMO_YEAR, type SeedContext, type SeededRecord, type SeedOverrides } from './context';
import { accountId, journalOf, recordsOf, recordWith } from './records';

/**
 * The financial documents made by the flows, so the books they post agree with everything
 * else (SPEC §17): an invoice bills an invoiced order (or is a direct invoice), a credit note
 * credits an issued invoice, payments pay what is left of a posted document, allocations settle
 * in date order (in full, in part, once with a write-off), supplier invoices bill received
 * orders. Taxes name the `tax` records; every amount is posted by the posting engine, never
 * written here.
 */

type Line = Record<string, unknown>;

const day = (value: unknown) => String(value);
const cents = (value: unknown) => Number(value ?? 0);

/** Euros for one unit of a foreign currency, about the ECB reference rates of early 2026. */
export const EUR_PER_UNIT: Record<string, number> = {
  USD: 0.9215,
  GBP: 1.1862,
  CHF: 1.0641,
  JPY: 0.006_12,
  SEK: 0.0874,
  DKK: 0.1341,
  NOK: 0.0853,
  PLN: 0.2318,
  CZK: 0.0398,
  CAD: 0.6784,
  CNY: 0.1271,
};

/** The rate a foreign document carries (a payment's drifts by `drift`); null in euros. */
function rateOf(currency: unknown, drift = 1): string | null {
  const rate = EUR_PER_UNIT[String(currency)];
  return currency === 'EUR' || !rate ? null : (rate * drift).toFixed(6);
}

/** The sales and purchase taxes of each French VAT rate (the `tax` records' codes). */
const SALES_TAX: Record<string, string> = {
  '20': 'TVA-C20',
  '10': 'TVA-C10',
  '5.5': 'TVA-C55',
  '2.1': 'TVA-C21',
  '0': 'TVA-EXO',
};
const PURCHASE_TAX: Record<string, string> = { '20': 'TVA-D20', '10': 'TVA-D10', '5.5': 'TVA-D55' };

/** The lines, each naming the tax of its rate when the seed has it in use (else the setting's). */
function taxed(ctx: SeedContext, lines: unknown, taxes: Record<string, string>): Line[] {
  return ((lines as Line[] | undefined) ?? []).map((line) => {
    const rate = String(Number(line.tax_rate ?? 0));
    const tax = recordsOf(ctx, 'tax').find((t) => t.code === taxes[rate] && t.status !== 'archive');
    const hasRate = recordsOf(ctx, 'tax_rate').some(
      (r) => r.tax_id === tax?.id && Number(r.rate) === Number(rate) && !r.valid_until,
    );
    return { ...line, tax_rate: rate, tax_id: tax && hasRate ? tax.id : null };
  });
}

/** A credit or debit note's lines: one unit of the document's first line, or a 5 % gesture. */
function creditedLines(lines: unknown, again: boolean): Line[] {
  const first = (lines as Line[])[0];
  if (!first) return [];
  if (!again) return [{ ...first, quantity: Number(first.quantity) >= 1 ? '1' : first.quantity }];
  const net = Number(first.quantity) * Number(first.unit_price_cents);
  return [
    {
      ...first,
      product_id: null,
      description: 'Geste commercial (5 %)',
      quantity: '1',
      unit_price_cents: Math.max(1, Math.round(net / 20)),
    },
  ];
}

const POSTED_INVOICE = ['emis', 'partiellement_paye', 'paye'];
const POSTED_BILL = ['approuve', 'partiellement_paye', 'paye'];
const OPEN = ['emis', 'approuve', 'partiellement_paye'];

/** Invoices that were issued and not cancelled, in the order they were made. */
const postedInvoices = (ctx: SeedContext) =>
  recordsOf(ctx, 'invoice').filter((i) => POSTED_INVOICE.includes(String(i.status)));
const approvedBills = (ctx: SeedContext) =>
  recordsOf(ctx, 'supplier_invoice').filter((b) => POSTED_BILL.includes(String(b.status)));

/** The k-th of `pool`, cycling; throws when the flow has nothing to follow. */
function nth(pool: readonly SeededRecord[], k: number, what: string): SeededRecord {
  const found = pool[k % Math.max(1, pool.length)];
  if (!found) throw new Error(`seed: no ${what} to follow`);
  return found;
}

/** What is left to pay of a document once its issued notes are deducted. */
function netOfNotes(ctx: SeedContext, doc: SeededRecord, notes: string, field: string): number {
  const credited = recordsOf(ctx, notes)
    .filter(
      (note) =>
        note[field] === doc.id && POSTED_INVOICE.concat('impute').includes(String(note.status)),
    )
    .reduce((sum, note) => sum + cents(note.total_cents), 0);
  return cents(doc.total_cents) - credited;
}

/** The note of the payment a customer made short of the bank fees it bore: written off. */
const SHORT_PAID = 'Frais bancaires retenus par le client (1,50 €)';
const SHORT_CENTS = 150;

/** One settlement the books can still make: a payment or a note against an open document. */
interface Settlement {
  date: string;
  body: Record<string, unknown>;
  amount: number;
  writeOff: number;
}

function settlements(ctx: SeedContext): Settlement[] {
  const byId = (resource: string, id: unknown) =>
    id ? recordsOf(ctx, resource).find((r) => r.id === id) : undefined;
  const open = (doc: SeededRecord | undefined): doc is SeededRecord =>
    !!doc && OPEN.includes(String(doc.status)) && cents(doc.amount_due_cents) > 0;
  const found: Settlement[] = [];
  for (const payment of recordsOf(ctx, 'payment')) {
    if (payment.status !== 'comptabilise' || cents(payment.unallocated_cents) <= 0) continue;
    const invoice = byId('invoice', payment.invoice_id);
    const bill = byId('supplier_invoice', payment.supplier_invoice_id);
    const doc = invoice ?? bill;
    if (!open(doc)) continue;
    const due = cents(doc.amount_due_cents);
    const left = cents(payment.unallocated_cents);
    const short = due - left;
    found.push({
      date: [day(payment.paid_on), day(doc.invoice_date)].sort().at(-1)!,
      body: {
        payment_id: payment.id,
        invoice_id: invoice?.id ?? null,
        supplier_invoice_id: bill?.id ?? null,
        currency: payment.currency,
      },
      amount: Math.min(due, left),
      writeOff: payment.notes === SHORT_PAID && short === SHORT_CENTS ? short : 0,
    });
  }
  for (const [notes, docs, field, dateField] of [
    ['credit_note', 'invoice', 'invoice_id', 'credit_note_date'],
    ['debit_note', 'supplier_invoice', 'supplier_invoice_id', 'debit_note_date'],
  ] as const) {
    for (const note of recordsOf(ctx, notes)) {
      const doc = byId(docs, note[field]);
      if (!open(note) || !open(doc)) continue;
      found.push({
        date: [day(note[dateField]), day(doc.invoice_date)].sort().at(-1)!,
        body: { [`${notes}_id`]: note.id, [field]: doc.id, currency: note.currency },
        amount: Math.min(cents(note.amount_due_cents), cents(doc.amount_due_cents)),
        writeOff: 0,
      });
    }
  }
  return found.sort((a, b) => a.date.localeCompare(b.date));
}

export const accountingFlowsSeed: SeedOverrides = {
  invoice(ctx) {
    // An issued invoice bills an invoiced order (each once); a draft, a delivered order being
    // invoiced; the others (and the cancelled ones) are direct invoices of services.
    // Made from the delivered order (SPEC §18: it counts on the order's lines; issuing it
    // makes the order `facture`).
    const billed = new Set(recordsOf(ctx, 'invoice').map((i) => i.sales_order_id));
    const billing = ctx.status === 'emis' || ctx.status === 'brouillon';
    const order = recordsOf(ctx, 'sales_order').find(
      (o) => billing && o.status === 'livre' && !billed.has(o.id),
    );
    // One direct invoice is an export in dollars: paid later at another rate, it realises an
    // exchange difference (766 or 666) when its payment is allocated.
    const exported = !order && ctx.n === 7;
    const abroad = recordsOf(ctx, 'customer').find(
      (c) => c.country_code && c.country_code !== 'FR',
    );
    const customer = order
      ? recordWith(ctx, 'customer', 'id', order.customer_id)!
      : ((exported ? abroad : undefined) ?? ctx.pick('customer'));
    const service = recordsOf(ctx, 'product').find((p) => p.product_type === 'service');
    const invoiceDate = order
      ? day(order.delivery_date ?? ctx.daysAfter(day(order.order_date), 10))
      : ctx.daysAfter(
          `${DEMO_YEAR}-01-05`,
          6 * recordsOf(ctx, 'invoice').filter((i) => !i.sales_order_id).length,
        );
    const lines = order
      ? order.lines
      : [
          {
            product_id: service?.id ?? null,
            description: String(service?.name ?? 'Installation et mise en service'),
            quantity: String(1 + (ctx.n % 4)),
            unit_of_measure: service?.unit_of_measure ?? 'Unit',
            unit_price_cents: cents(service?.sale_price_cents) || 45_000,
            // A service to a business outside the EU bears no French VAT.
            tax_rate: exported ? '0' : '20',
          },
        ];
    const currency = order?.currency ?? (exported ? 'USD' : 'EUR');
    const terms = cents(customer.payment_terms_days ?? 30) || 30;
    return {
      ...(order
        ? {
            [CONVERT]: {
              source: resourceNamed('sales_order'),
              id: order.id,
              conversion: 'make_invoice',
            },
          }
        : {}),
      customer_id: customer.id,
      sales_order_id: order?.id ?? null,
      customer_reference: order?.customer_reference ?? null,
      invoice_date: invoiceDate,
      due_date: ctx.daysAfter(invoiceDate, terms),
      currency,
      exchange_rate: rateOf(currency),
      payment_terms_days: terms,
      payment_term_id: null,
      journal_id: journalOf(ctx, 'sales').id,
      fiscal_position_id: exported
        ? (recordsOf(ctx, 'fiscal_position').find((f) => f.zone === 'non_eu')?.id ?? null)
        : null,
      // A structured creditor reference (ISO 11649) for the customer to quote.
      payment_reference: `RF${String(10 + ((ctx.n * 37) % 89)).padStart(2, '0')}${DEMO_YEAR}${String(ctx.n + 1).padStart(6, '0')}`,
      lines: taxed(ctx, lines, SALES_TAX),
      salesperson_id: order?.salesperson_id ?? null,
      sales_subscription_id: null,
    };
  },
  credit_note(ctx) {
    const posted = postedInvoices(ctx);
    const invoice = nth(posted, ctx.n, 'issued invoice');
    return {
      invoice_id: invoice.id,
      customer_id: invoice.customer_id,
      credit_note_date: ctx.daysAfter(day(invoice.invoice_date), 5 + (ctx.n % 10)),
      currency: invoice.currency,
      exchange_rate: invoice.exchange_rate ?? null,
      journal_id: invoice.journal_id,
      lines: taxed(ctx, creditedLines(invoice.lines, ctx.n >= posted.length), SALES_TAX),
    };
  },
  supplier_invoice(ctx) {
    // An approved bill bills a received (or sent) order, each once; the others bill any order.
    const billed = new Set(recordsOf(ctx, 'supplier_invoice').map((b) => b.purchase_order_id));
    const orders = recordsOf(ctx, 'purchase_order').filter((o) => !billed.has(o.id));
    const order =
      orders.find((o) => o.status === 'recu') ??
      orders.find((o) => o.status === 'envoye') ??
      orders.find((o) => o.status === 'approuve') ??
      ctx.pick('purchase_order');
    const invoiceDate = ctx.daysAfter(day(order.order_date), 12 + (ctx.n % 5));
    // Made from its order when the order was sent (SPEC §18: it counts on the order's lines;
    // its received goods clear what their receipts credited to 408).
    const convertible =
      (order.status === 'envoye' || order.status === 'recu') && !billed.has(order.id);
    return {
      ...(convertible
        ? {
            [CONVERT]: {
              source: resourceNamed('purchase_order'),
              id: order.id,
              conversion: 'make_supplier_invoice',
            },
          }
        : {}),
      supplier_id: order.supplier_id,
      purchase_order_id: order.id,
      supplier_invoice_number: `F-${invoiceDate.slice(0, 4)}-${String(410 + ctx.n * 37).padStart(5, '0')}`,
      invoice_date: invoiceDate,
      due_date: ctx.daysAfter(invoiceDate, 45),
      currency: order.currency ?? 'EUR',
      exchange_rate: rateOf(order.currency ?? 'EUR'),
      payment_term_id: recordWith(ctx, 'payment_term', 'code', 'NET45')?.id ?? null,
      journal_id: journalOf(ctx, 'purchases').id,
      fiscal_position_id: null,
      lines: taxed(ctx, order.lines, PURCHASE_TAX),
    };
  },
  debit_note(ctx) {
    const approved = approvedBills(ctx);
    const bill = nth(approved, ctx.n, 'approved supplier invoice');
    return {
      supplier_id: bill.supplier_id,
      supplier_invoice_id: bill.id,
      debit_note_date: ctx.daysAfter(day(bill.invoice_date), 4 + (ctx.n % 8)),
      supplier_reference:
        ctx.n % 3 === 0 ? null : `AV-${DEMO_YEAR}-${String(88 + ctx.n * 13).padStart(4, '0')}`,
      currency: bill.currency,
      exchange_rate: bill.exchange_rate ?? null,
      journal_id: bill.journal_id,
      lines: taxed(ctx, creditedLines(bill.lines, ctx.n >= approved.length), PURCHASE_TAX),
    };
  },
  payment(ctx) {
    // Three payments in four come in from customers; each pays a posted document what its
    // notes leave due: in full, in half (it stays partly paid), or 1.50 € short (written off).
    const incoming = ctx.n % 4 !== 3;
    const k = incoming ? ctx.n - Math.floor((ctx.n + 1) / 4) : Math.floor(ctx.n / 4);

    const [notes, field] = incoming
      ? ['credit_note', 'invoice_id']
      : ['debit_note', 'supplier_invoice_id'];
    const docs = (incoming ? postedInvoices(ctx) : approvedBills(ctx)).filter(
      (d) => netOfNotes(ctx, d, notes, field) > 0,
    );
    // The one paid short is in euros (its 1.50 € written off in euros).
    const euros = docs.filter((d) => d.currency === 'EUR');
    const pool = incoming && k === 2 && euros.length ? euros : docs;
    const doc = nth(pool, k, incoming ? 'issued invoice' : 'approved supplier invoice');
    const due = netOfNotes(ctx, doc, notes, field);
    const short = incoming && k === 2 && doc.currency === 'EUR' && due > SHORT_CENTS;
    const amount = k % 3 === 1 ? Math.ceil(due / 2) : short ? due - SHORT_CENTS : due;
    const paidOn = incoming
      ? ctx.daysAfter(day(doc.invoice_date), 18 + (ctx.n % 11))
      : ctx.daysAfter(day(doc.due_date), -(ctx.n % 6));
    const party = incoming ? doc.customer_id : doc.supplier_id;
    // Through the default account, or one in the payment's currency.
    const banks = recordsOf(ctx, 'bank_account');
    const bank =
      (doc.currency === 'EUR' ? undefined : banks.find((b) => b.currency === doc.currency)) ??
      banks.find((b) => b.is_default) ??
      ctx.pick('bank_account');
    return {
      direction: incoming ? 'incoming' : 'outgoing',
      amount_cents: Math.max(1, amount),
      currency: doc.currency,
      // Paid some days later than invoiced: at another rate, a realised difference to post.
      exchange_rate: rateOf(doc.currency, 1.01),
      method: ctx.n % 7 === 5 ? 'direct_debit' : 'bank_transfer',
      notes: short ? SHORT_PAID : null,
      paid_on: paidOn,
      reference: incoming
        ? `VIR-${paidOn}-${doc.number}`
        : `VIR-EMIS-${paidOn}-${doc.supplier_invoice_number}`,
      customer_id: incoming ? party : null,
      supplier_id: incoming ? null : party,
      invoice_id: incoming ? doc.id : null,
      supplier_invoice_id: incoming ? null : doc.id,
      bank_account_id: bank.id,
      journal_id: bank.journal_id ?? journalOf(ctx, 'bank').id,
    };
  },
  payment_allocation(ctx) {
    // In date order, payments first (notes left open are credits the customer still has); when
    // fewer settlements are left than allocations to make, half of the largest (an instalment).
    const open = settlements(ctx);
    const left = ctx.count - ctx.n;
    const full = open.length >= left;
    const next = full
      ? (open.find((s) => s.body.payment_id) ?? open[0])
      : [...open].sort((a, b) => b.amount - a.amount)[0];
    if (!next || (!full && next.amount < 2)) throw new Error('seed: nothing left to settle');
    return {
      payment_id: null,
      invoice_id: null,
      supplier_invoice_id: null,
      credit_note_id: null,
      debit_note_id: null,
      ...next.body,
      allocation_date: next.date,
      amount_cents: full ? next.amount : Math.floor(next.amount / 2),
      write_off_cents: full && next.writeOff ? next.writeOff : null,
      write_off_account_id: full && next.writeOff ? accountId(ctx, '658000') : null,
      notes: full && next.writeOff ? SHORT_PAID : null,
    };
  },
};

/** Most documents posted; one draft in six, one cancelled as a draft, one reversed once posted. */
const postedWalk =
  (post: readonly string[], cancel = 'cancel') =>
  (n: number): readonly string[] => {
    if (n === 4) return [cancel];
    if (n === 9) return [...post, cancel];
    return n % 6 === 0 ? [] : post;
  };

export const accountingFlowWalks = {
  // Past years and their months are closed; the demo's year (installed) is open.
  fiscal_year: () => ['close'],
  accounting_period: () => ['close'],
  invoice: postedWalk(['issue']),
  payment: postedWalk(['post']),
  supplier_invoice: (n: number) => (n === 4 ? ['submit'] : postedWalk(['submit', 'approve'])(n)),
};
