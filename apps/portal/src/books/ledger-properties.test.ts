import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksTenant, line } from '../../test/books-harness';
import { createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;
beforeAll(async () => {
  // Hundreds of requests a run: above a session's default rate limit.
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: '100000' });
  books = await booksTenant(portal);
});
afterAll(() => portal.tdb.close());

type Op =
  | { kind: 'invoice'; cents: number; rate: string }
  | { kind: 'credit_note'; invoice: number; share: number }
  | { kind: 'bill'; cents: number; rate: string }
  | { kind: 'payment'; cents: number; flow: Flow }
  | { kind: 'allocate'; pair: Pair; from: number; to: number; share: number }
  | { kind: 'unallocate'; which: number }
  | { kind: 'cancel'; what: Cancellable; which: number };

/** Money in from the customer, out to it (a refund), out to the supplier. */
type Flow = 'incoming' | 'refund' | 'outgoing';
/** What settles what: a payment an invoice, a credit note an invoice, a refund a credit note, a payment a bill. */
type Pair = 'payment_invoice' | 'note_invoice' | 'refund_note' | 'payment_bill';
type Cancellable = 'invoices' | 'notes' | 'bills' | 'payments';

const share = fc.double({ min: 0.05, max: 1.2, noNaN: true });
const documentOps: fc.Arbitrary<Op>[] = [
  fc.record({
    kind: fc.constant('invoice' as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
    rate: fc.constantFrom('0', '5.5', '20'),
  }),
  fc.record({ kind: fc.constant('credit_note' as const), invoice: fc.nat(), share }),
  fc.record({
    kind: fc.constant('bill' as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
    rate: fc.constantFrom('0', '20'),
  }),
  fc.record({
    kind: fc.constant('payment' as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
    flow: fc.constantFrom<Flow>('incoming', 'refund', 'outgoing'),
  }),
];
/** A world's first documents, so that what follows has something to settle. */
const documents = fc.array(fc.oneof(...documentOps), { minLength: 4, maxLength: 10 });
const op: fc.Arbitrary<Op> = fc.oneof(
  ...documentOps,
  {
    // Settling is what most rules are about: three times as likely as any other step.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('allocate' as const),
      pair: fc.constantFrom<Pair>('payment_invoice', 'note_invoice', 'refund_note', 'payment_bill'),
      from: fc.nat(),
      to: fc.nat(),
      share,
    }),
  },
  fc.record({ kind: fc.constant('unallocate' as const), which: fc.nat() }),
  fc.record({
    kind: fc.constant('cancel' as const),
    what: fc.constantFrom<Cancellable>('invoices', 'notes', 'bills', 'payments'),
    which: fc.nat(),
  }),
);

/** One world: a customer and a supplier of its own, and what the sequence made. */
function world() {
  return {
    customer: '',
    supplier: '',
    invoices: [] as string[],
    notes: [] as string[],
    bills: [] as string[],
    payments: { incoming: [] as string[], refund: [] as string[], outgoing: [] as string[] },
    allocations: [] as string[],
  };
}

const PATHS: Record<Cancellable, string> = {
  invoices: 'invoices',
  notes: 'credit-notes',
  bills: 'supplier-invoices',
  payments: 'payments',
};

/** Each pair: the settling side (its list, path, what it has left), the settled side, the body's keys. */
const PAIRS: Record<
  Pair,
  {
    from: (w: World) => string[];
    fromPath: string;
    fromLeft: string;
    fromKey: string;
    to: (w: World) => string[];
    toPath: string;
    toKey: string;
  }
> = {
  payment_invoice: {
    from: (w) => w.payments.incoming,
    fromPath: 'payments',
    fromLeft: 'unallocated_cents',
    fromKey: 'payment_id',
    to: (w) => w.invoices,
    toPath: 'invoices',
    toKey: 'invoice_id',
  },
  note_invoice: {
    from: (w) => w.notes,
    fromPath: 'credit-notes',
    fromLeft: 'amount_due_cents',
    fromKey: 'credit_note_id',
    to: (w) => w.invoices,
    toPath: 'invoices',
    toKey: 'invoice_id',
  },
  refund_note: {
    from: (w) => w.payments.refund,
    fromPath: 'payments',
    fromLeft: 'unallocated_cents',
    fromKey: 'payment_id',
    to: (w) => w.notes,
    toPath: 'credit-notes',
    toKey: 'credit_note_id',
  },
  payment_bill: {
    from: (w) => w.payments.outgoing,
    fromPath: 'payments',
    fromLeft: 'unallocated_cents',
    fromKey: 'payment_id',
    to: (w) => w.bills,
    toPath: 'supplier-invoices',
    toKey: 'supplier_invoice_id',
  },
};

type World = ReturnType<typeof world>;

async function issued(path: string, body: Record<string, unknown>, actions: string[]) {
  const draft = await books.create(path, body);
  for (const action of actions)
    expect((await books.call('POST', `${path}/${draft.id}/${action}`)).status).toBe(200);
  return draft.id;
}

async function apply(w: World, o: Op): Promise<void> {
  const pick = (list: string[], n: number) => (list.length ? list[n % list.length] : undefined);
  if (o.kind === 'invoice') {
    w.invoices.push(
      await issued(
        'invoices',
        {
          customer_id: w.customer,
          invoice_date: '2026-03-10',
          due_date: '2026-04-09',
          currency: 'EUR',
          lines: [line('1', o.cents, o.rate)],
        },
        ['issue'],
      ),
    );
  } else if (o.kind === 'credit_note') {
    const invoice = pick(w.invoices, o.invoice);
    if (!invoice) return;
    const i = (await books.call('GET', `invoices/${invoice}`)).body;
    const cents = Math.max(1, Math.round(i.lines[0].unit_price_cents * Math.min(o.share, 1)));
    w.notes.push(
      await issued(
        'credit-notes',
        {
          invoice_id: invoice,
          customer_id: w.customer,
          credit_note_date: '2026-03-12',
          reason: 'return',
          currency: 'EUR',
          lines: [line('1', cents, i.lines[0].tax_rate)],
        },
        ['issue'],
      ),
    );
  } else if (o.kind === 'bill') {
    w.bills.push(
      await issued(
        'supplier-invoices',
        {
          supplier_id: w.supplier,
          supplier_invoice_number: `F-${w.bills.length + 1}`,
          invoice_date: '2026-03-11',
          due_date: '2026-05-10',
          currency: 'EUR',
          lines: [line('1', o.cents, o.rate)],
        },
        ['submit', 'approve'],
      ),
    );
  } else if (o.kind === 'payment') {
    w.payments[o.flow].push(
      await issued(
        'payments',
        {
          direction: o.flow === 'incoming' ? 'incoming' : 'outgoing',
          amount_cents: o.cents,
          currency: 'EUR',
          method: 'bank_transfer',
          paid_on: '2026-03-15',
          ...(o.flow === 'outgoing' ? { supplier_id: w.supplier } : { customer_id: w.customer }),
          journal_id: books.journals.bank.id,
        },
        ['post'],
      ),
    );
  } else if (o.kind === 'allocate') {
    const pair = PAIRS[o.pair];
    const from = pick(pair.from(w), o.from);
    const to = pick(pair.to(w), o.to);
    if (!from || !to) return;
    const f = (await books.call('GET', `${pair.fromPath}/${from}`)).body;
    const t = (await books.call('GET', `${pair.toPath}/${to}`)).body;
    const cents = Math.max(
      1,
      Math.round(Math.min(f[pair.fromLeft] ?? 0, t.amount_due_cents ?? 0) * o.share),
    );
    const res = await books.call('POST', 'payment-allocations', {
      [pair.fromKey]: from,
      [pair.toKey]: to,
      amount_cents: cents,
      allocation_date: '2026-03-20',
      currency: 'EUR',
    });
    // Above what is left (or nothing left, or a cancelled side): refused, nothing kept.
    expect([201, 422, 400]).toContain(res.status);
    if (res.status === 201) w.allocations.push(res.body.id);
  } else if (o.kind === 'unallocate') {
    const allocation = pick(w.allocations, o.which);
    if (!allocation) return;
    expect((await books.call('DELETE', `payment-allocations/${allocation}`)).status).toBe(204);
    w.allocations.splice(w.allocations.indexOf(allocation), 1);
  } else {
    const list =
      o.what === 'payments'
        ? [...w.payments.incoming, ...w.payments.refund, ...w.payments.outgoing]
        : w[o.what];
    const id = pick(list, o.which);
    if (!id) return;
    const res = await books.call('POST', `${PATHS[o.what]}/${id}/cancel`);
    // Settled by allocations: document_lettre; already cancelled: transition_invalide.
    expect([200, 409]).toContain(res.status);
  }
}

const sumOf = async (text: string, values: unknown[]) =>
  Number((await portal.tdb.pool.query<{ n: string | null }>(text, values)).rows[0]!.n ?? 0);

/** Everything SPEC §17 says must hold, checked against the database itself. */
async function checkInvariants(w: World): Promise<void> {
  const tenant = books.tenant.id;
  const tb = (await books.call('GET', 'reports/trial-balance?from=2026-01-01&to=2026-12-31')).body;
  expect(tb.totals.debit_cents).toBe(tb.totals.credit_cents);
  expect(tb.totals.closing_cents).toBe(0);
  // The trial balance read from monthly balances is what summing the lines gives.
  const { rows } = await portal.tdb.pool.query<{ account_id: string; balance: string }>(
    `SELECT account_id, sum(debit_cents - credit_cents)::text AS balance FROM ledger_lines
      WHERE tenant_id = $1 AND entry_date <= '2026-12-31' GROUP BY account_id`,
    [tenant],
  );
  const brute = Object.fromEntries(rows.map((r) => [r.account_id, Number(r.balance)]));
  for (const a of tb.accounts) expect(a.closing_cents).toBe(brute[a.account_id] ?? 0);
  // Every posted entry balances (the database's CHECK; read back from the ledger).
  const unbalanced = await portal.tdb.pool.query(
    `SELECT entry_id FROM ledger_lines WHERE tenant_id = $1 GROUP BY entry_id
      HAVING sum(debit_cents) <> sum(credit_cents) OR count(*) < 2`,
    [tenant],
  );
  expect(unbalanced.rows).toEqual([]);
  // Nothing owes less than nothing, nor more than its total; no payment is over-allocated.
  for (const table of ['invoices', 'credit_notes', 'supplier_invoices'])
    expect(
      await sumOf(
        `SELECT count(*)::text AS n FROM ${table} WHERE tenant_id = $1
           AND (amount_due_cents < 0 OR amount_due_cents > greatest(total_cents, 0))`,
        [tenant],
      ),
    ).toBe(0);
  expect(
    await sumOf(
      `SELECT count(*)::text AS n FROM payments WHERE tenant_id = $1
         AND (allocated_cents < 0 OR allocated_cents > amount_cents)`,
      [tenant],
    ),
  ).toBe(0);
  // The customer's receivable in the ledger is what its invoices still owe, less what its
  // credit notes and payments have not settled, plus refunds not yet set against a note.
  const ledgerOf = (column: string, id: string) =>
    sumOf(
      `SELECT sum(debit_cents - credit_cents)::text AS n FROM ledger_lines
        WHERE tenant_id = $1 AND ${column} = $2`,
      [tenant, id],
    );
  const due = (table: string, column: string, id: string) =>
    sumOf(
      `SELECT sum(amount_due_cents)::text AS n FROM ${table} WHERE tenant_id = $1 AND ${column} = $2`,
      [tenant, id],
    );
  const open = (direction: string, column: string, id: string) =>
    sumOf(
      `SELECT sum(unallocated_cents)::text AS n FROM payments
        WHERE tenant_id = $1 AND ${column} = $2 AND direction = $3 AND status = 'comptabilise'`,
      [tenant, id, direction],
    );
  const receivable = await ledgerOf('customer_id', w.customer);
  expect(receivable).toBe(
    (await due('invoices', 'customer_id', w.customer)) -
      (await due('credit_notes', 'customer_id', w.customer)) -
      (await open('incoming', 'customer_id', w.customer)) +
      (await open('outgoing', 'customer_id', w.customer)),
  );
  // The supplier's payable (a credit balance) is what its bills still owe less unsettled payments.
  const payable = 0 - (await ledgerOf('supplier_id', w.supplier));
  expect(payable).toBe(
    (await due('supplier_invoices', 'supplier_id', w.supplier)) -
      (await open('outgoing', 'supplier_id', w.supplier)),
  );
  // The aged reports equal the receivable and payable accounts' closing balances.
  for (const at of ['2026-03-31', '2026-12-31']) {
    const closings = (await books.call('GET', `reports/trial-balance?from=2026-01-01&to=${at}`))
      .body.accounts as { account_id: string; closing_cents: number }[];
    const closing = (id: string) => closings.find((a) => a.account_id === id)?.closing_cents ?? 0;
    const receivables = (await books.call('GET', `reports/aged-receivables?at=${at}`)).body;
    const payables = (await books.call('GET', `reports/aged-payables?at=${at}`)).body;
    expect(receivables.totals.total_cents).toBe(closing(books.accounts.receivable.id));
    expect(payables.totals.total_cents).toBe(0 - closing(books.accounts.payable.id));
    const party = (report: { parties: { party_id: string; total_cents: number }[] }, id: string) =>
      report.parties.find((p) => p.party_id === id)?.total_cents ?? 0;
    expect(party(receivables, w.customer)).toBe(receivable);
    expect(party(payables, w.supplier)).toBe(payable);
  }
  // A cancelled document's original and reversal net to zero on every account.
  const cancelled = await portal.tdb.pool.query(
    `SELECT coalesce(j.invoice_id, j.supplier_invoice_id, j.payment_id, j.source_id) AS document
       FROM ledger_lines l JOIN journal_entries j ON j.tenant_id = l.tenant_id AND j.id = l.entry_id
      WHERE l.tenant_id = $1 AND coalesce(j.invoice_id, j.supplier_invoice_id, j.payment_id, j.source_id) IN (
        SELECT id FROM invoices WHERE tenant_id = $1 AND status = 'annule'
        UNION ALL SELECT id FROM credit_notes WHERE tenant_id = $1 AND status = 'annule'
        UNION ALL SELECT id FROM supplier_invoices WHERE tenant_id = $1 AND status = 'annule'
        UNION ALL SELECT id FROM payments WHERE tenant_id = $1 AND status = 'annule')
      GROUP BY coalesce(j.invoice_id, j.supplier_invoice_id, j.payment_id, j.source_id), l.account_id
      HAVING sum(l.debit_cents - l.credit_cents) <> 0`,
    [tenant],
  );
  expect(cancelled.rows).toEqual([]);
}

async function freshWorld() {
  const w = world();
  w.customer = (
    await books.create('customers', { name: 'Client', customer_type: 'company', active: true })
  ).id;
  w.supplier = (await books.create('suppliers', { name: 'Fournisseur' })).id;
  return w;
}

describe('the books under generated sequences (fast-check)', () => {
  it('issue, approve, post, allocate, un-allocate and cancel in any order, customer and supplier side, refunds included: every rule holds after every step', async () => {
    await fc.assert(
      fc.asyncProperty(
        documents,
        fc.array(op, { minLength: 1, maxLength: 16 }),
        async (first, then) => {
          const w = await freshWorld();
          for (const o of [...first, ...then]) {
            await apply(w, o);
            await checkInvariants(w);
          }
        },
      ),
      { numRuns: 20, seed: 20261128 },
    );
  }, 300_000);

  it('the same operations run concurrently: the rules hold once they settle', async () => {
    await fc.assert(
      fc.asyncProperty(
        documents,
        fc.array(op, { minLength: 4, maxLength: 16 }),
        async (first, ops) => {
          const w = await freshWorld();
          // Documents first, so the concurrent allocations have something to settle.
          for (const o of first) await apply(w, o);
          await Promise.all(
            ops.filter((x) => x.kind === 'allocate' || x.kind === 'cancel').map((o) => apply(w, o)),
          );
          await checkInvariants(w);
        },
      ),
      { numRuns: 6, seed: 20261129 },
    );
  }, 300_000);
});
