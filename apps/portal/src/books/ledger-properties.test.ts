import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksTenant, line } from '../../test/books-harness';
import { createTestPortal } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  books = await booksTenant(portal);
});
afterAll(() => portal.tdb.close());

type Op =
  | { kind: 'invoice'; cents: number; rate: string }
  | { kind: 'payment'; cents: number }
  | { kind: 'allocate'; payment: number; invoice: number; share: number }
  | { kind: 'unallocate'; which: number }
  | { kind: 'cancel'; which: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('invoice' as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
    rate: fc.constantFrom('0', '5.5', '20'),
  }),
  fc.record({ kind: fc.constant('payment' as const), cents: fc.integer({ min: 1, max: 500_000 }) }),
  fc.record({
    kind: fc.constant('allocate' as const),
    payment: fc.nat(),
    invoice: fc.nat(),
    share: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('unallocate' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), which: fc.nat() }),
);

/** One world: a customer of its own, and what the sequence made. */
function world() {
  return {
    customer: '',
    invoices: [] as string[],
    payments: [] as string[],
    allocations: [] as string[],
  };
}

async function apply(w: ReturnType<typeof world>, o: Op): Promise<void> {
  const pick = (list: string[], n: number) => (list.length ? list[n % list.length] : undefined);
  if (o.kind === 'invoice') {
    const draft = await books.create('invoices', {
      customer_id: w.customer,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('1', o.cents, o.rate)],
    });
    expect((await books.call('POST', `invoices/${draft.id}/issue`)).status).toBe(200);
    w.invoices.push(draft.id);
  } else if (o.kind === 'payment') {
    const draft = await books.create('payments', {
      direction: 'incoming',
      amount_cents: o.cents,
      currency: 'EUR',
      method: 'bank_transfer',
      paid_on: '2026-03-15',
      customer_id: w.customer,
      journal_id: books.journals.bank.id,
    });
    expect((await books.call('POST', `payments/${draft.id}/post`)).status).toBe(200);
    w.payments.push(draft.id);
  } else if (o.kind === 'allocate') {
    const payment = pick(w.payments, o.payment);
    const invoice = pick(w.invoices, o.invoice);
    if (!payment || !invoice) return;
    const p = (await books.call('GET', `payments/${payment}`)).body;
    const i = (await books.call('GET', `invoices/${invoice}`)).body;
    const cents = Math.max(
      1,
      Math.round(Math.min(p.unallocated_cents, i.amount_due_cents) * o.share),
    );
    const res = await books.call('POST', 'payment-allocations', {
      payment_id: payment,
      invoice_id: invoice,
      amount_cents: cents,
      allocation_date: '2026-03-20',
      currency: 'EUR',
    });
    // Above what is left (or nothing left, or a cancelled invoice): refused, nothing kept.
    expect([201, 422, 400]).toContain(res.status);
    if (res.status === 201) w.allocations.push(res.body.id);
  } else if (o.kind === 'unallocate') {
    const allocation = pick(w.allocations, o.which);
    if (!allocation) return;
    expect((await books.call('DELETE', `payment-allocations/${allocation}`)).status).toBe(204);
    w.allocations.splice(w.allocations.indexOf(allocation), 1);
  } else {
    const invoice = pick(w.invoices, o.which);
    if (!invoice) return;
    const res = await books.call('POST', `invoices/${invoice}/cancel`);
    // Settled by allocations: document_lettre; already cancelled: transition_invalide.
    expect([200, 409]).toContain(res.status);
  }
}

/** Everything SPEC §17 says must hold, checked against the database itself. */
async function checkInvariants(w: ReturnType<typeof world>): Promise<void> {
  const tb = (await books.call('GET', 'reports/trial-balance?from=2026-01-01&to=2026-12-31')).body;
  expect(tb.totals.debit_cents).toBe(tb.totals.credit_cents);
  expect(tb.totals.closing_cents).toBe(0);
  // The trial balance read from monthly balances is what summing the lines gives.
  const { rows } = await portal.tdb.pool.query<{ account_id: string; balance: string }>(
    `SELECT account_id, sum(debit_cents - credit_cents)::text AS balance FROM ledger_lines
      WHERE tenant_id = $1 AND entry_date <= '2026-12-31' GROUP BY account_id`,
    [books.tenant.id],
  );
  const brute = Object.fromEntries(rows.map((r) => [r.account_id, Number(r.balance)]));
  for (const a of tb.accounts) expect(a.closing_cents).toBe(brute[a.account_id] ?? 0);
  // Every posted entry balances (the database's CHECK; read back from the ledger).
  const unbalanced = await portal.tdb.pool.query(
    `SELECT entry_id FROM ledger_lines WHERE tenant_id = $1 GROUP BY entry_id
      HAVING sum(debit_cents) <> sum(credit_cents) OR count(*) < 2`,
    [books.tenant.id],
  );
  expect(unbalanced.rows).toEqual([]);
  // The customer's receivable in the ledger is what its documents still owe less what its
  // payments have not settled; nothing owes less than nothing.
  const receivable = await portal.tdb.pool.query<{ balance: string | null }>(
    `SELECT sum(debit_cents - credit_cents)::text AS balance FROM ledger_lines
      WHERE tenant_id = $1 AND customer_id = $2`,
    [books.tenant.id, w.customer],
  );
  const owed = await portal.tdb.pool.query<{ due: string | null; negative: number }>(
    `SELECT sum(amount_due_cents)::text AS due, count(*) FILTER (WHERE amount_due_cents < 0)::int AS negative
       FROM invoices WHERE tenant_id = $1 AND customer_id = $2`,
    [books.tenant.id, w.customer],
  );
  const unsettled = await portal.tdb.pool.query<{ open: string | null }>(
    `SELECT sum(unallocated_cents)::text AS open FROM payments
      WHERE tenant_id = $1 AND customer_id = $2 AND status = 'comptabilise'`,
    [books.tenant.id, w.customer],
  );
  expect(owed.rows[0]!.negative).toBe(0);
  expect(Number(receivable.rows[0]!.balance ?? 0)).toBe(
    Number(owed.rows[0]!.due ?? 0) - Number(unsettled.rows[0]!.open ?? 0),
  );
  // The aged receivables equal the receivable account's closing balance (the chart has one).
  for (const at of ['2026-03-31', '2026-12-31']) {
    const aged = (await books.call('GET', `reports/aged-receivables?at=${at}`)).body;
    const closing = (
      await books.call('GET', `reports/trial-balance?from=2026-01-01&to=${at}`)
    ).body.accounts.find(
      (a: { account_id: string }) => a.account_id === books.accounts.receivable.id,
    );
    expect(aged.totals.total_cents).toBe(closing?.closing_cents ?? 0);
    const mine = aged.parties.find((p: { party_id: string }) => p.party_id === w.customer);
    expect(mine?.total_cents ?? 0).toBe(Number(receivable.rows[0]!.balance ?? 0));
  }
  // A cancelled invoice's original and reversal net to zero on every account.
  const cancelled = await portal.tdb.pool.query(
    `SELECT l.account_id FROM ledger_lines l JOIN journal_entries j ON j.tenant_id = l.tenant_id AND j.id = l.entry_id
       JOIN invoices i ON i.tenant_id = j.tenant_id AND i.id = j.invoice_id
      WHERE l.tenant_id = $1 AND i.customer_id = $2 AND i.status = 'annule'
      GROUP BY i.id, l.account_id HAVING sum(l.debit_cents - l.credit_cents) <> 0`,
    [books.tenant.id, w.customer],
  );
  expect(cancelled.rows).toEqual([]);
}

async function freshWorld() {
  const w = world();
  w.customer = (
    await books.create('customers', { name: 'Client', customer_type: 'company', active: true })
  ).id;
  return w;
}

describe('the books under generated sequences (fast-check)', () => {
  it('issue, post, allocate, un-allocate and cancel in any order: every rule holds after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const w = await freshWorld();
        for (const o of ops) {
          await apply(w, o);
          await checkInvariants(w);
        }
      }),
      { numRuns: 12, seed: 20261128 },
    );
  }, 300_000);

  it('the same operations run concurrently: the rules hold once they settle', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 16 }), async (ops) => {
        const w = await freshWorld();
        // Documents first, so the concurrent allocations have something to settle.
        for (const o of ops.filter((x) => x.kind === 'invoice' || x.kind === 'payment'))
          await apply(w, o);
        await Promise.all(
          ops.filter((x) => x.kind === 'allocate' || x.kind === 'cancel').map((o) => apply(w, o)),
        );
        await checkInvariants(w);
      }),
      { numRuns: 6, seed: 20261129 },
    );
  }, 300_000);
});
