import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksTenant, line } from '../../test/books-harness';
import { createTestPortal } from '../../test/harness';

/**
 * The supplier side of the books and the refunds (SPEC §17): a supplier invoice approved, paid
 * and settled; a debit note settling it; a credit note settling an invoice, its rest refunded
 * by an outgoing payment to the customer; payments that go the wrong way, or name two parties
 * or none, refused. After each story the receivable and payable accounts' closing balances in
 * the trial balance equal the aged reports' totals.
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  books = await booksTenant(portal);
});
afterAll(() => portal.tdb.close());

const DAY = '2026-03-10';

async function act(path: string, action: string) {
  const res = await books.call('POST', `${path}/${action}`);
  if (res.status !== 200) throw new Error(`${path} ${action}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown> & { id: string };
}

async function payment(
  direction: 'incoming' | 'outgoing',
  amount_cents: number,
  party: Record<string, string>,
) {
  const draft = await books.create('payments', {
    direction,
    amount_cents,
    currency: 'EUR',
    method: 'bank_transfer',
    paid_on: DAY,
    journal_id: books.journals.bank.id,
    ...party,
  });
  return draft;
}

const allocate = (body: Record<string, unknown>) =>
  books.call('POST', 'payment-allocations', {
    allocation_date: DAY,
    currency: 'EUR',
    ...body,
  });

async function entryOf(filter: string) {
  const { body } = await books.call('GET', `journal-entries?${filter}&status=eq.comptabilise`);
  expect(body.data).toHaveLength(1);
  return body.data[0] as { lines: Record<string, unknown>[] };
}

/** The receivable and payable closings equal the aged reports' totals, at the day. */
async function expectAgedEqualsTrialBalance() {
  const tb = (await books.call('GET', `reports/trial-balance?from=2026-01-01&to=${DAY}`)).body;
  const closing = (id: string) =>
    (tb.accounts as { account_id: string; closing_cents: number }[]).find(
      (a) => a.account_id === id,
    )?.closing_cents ?? 0;
  expect(tb.totals.debit_cents).toBe(tb.totals.credit_cents);
  const receivables = (await books.call('GET', `reports/aged-receivables?at=${DAY}`)).body;
  const payables = (await books.call('GET', `reports/aged-payables?at=${DAY}`)).body;
  expect(receivables.totals.total_cents).toBe(closing(books.accounts.receivable.id));
  expect(payables.totals.total_cents).toBe(-closing(books.accounts.payable.id));
  return { receivables, payables };
}

describe('the supplier side', () => {
  it('a supplier invoice approved posts expense, VAT and payable; an outgoing payment settles it', async () => {
    const draft = await books.create('supplier-invoices', {
      supplier_id: books.supplier.id,
      supplier_invoice_number: 'F-1',
      invoice_date: DAY,
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('2', 10_000, '20')],
    });
    await act(`supplier-invoices/${draft.id}`, 'submit');
    const approved = await act(`supplier-invoices/${draft.id}`, 'approve');
    expect(approved).toMatchObject({ status: 'approuve', amount_due_cents: 24_000 });
    expect((await entryOf(`supplier_invoice_id=eq.${draft.id}`)).lines).toEqual([
      expect.objectContaining({ account_id: books.accounts.expense.id, debit_cents: 20_000 }),
      expect.objectContaining({ account_id: books.accounts.vat_deductible.id, debit_cents: 4_000 }),
      expect.objectContaining({
        account_id: books.accounts.payable.id,
        credit_cents: 24_000,
        supplier_id: books.supplier.id,
      }),
    ]);

    // A debit note of 50.00 + VAT settles part of it.
    const note = await books.create('debit-notes', {
      supplier_id: books.supplier.id,
      supplier_invoice_id: draft.id,
      debit_note_date: DAY,
      reason: 'return',
      currency: 'EUR',
      lines: [line('1', 5_000, '20')],
    });
    await act(`debit-notes/${note.id}`, 'issue');
    expect((await entryOf(`source_id=eq.${note.id}`)).lines).toEqual([
      expect.objectContaining({ account_id: books.accounts.expense.id, credit_cents: 5_000 }),
      expect.objectContaining({
        account_id: books.accounts.vat_deductible.id,
        credit_cents: 1_000,
      }),
      expect.objectContaining({ account_id: books.accounts.payable.id, debit_cents: 6_000 }),
    ]);
    const byNote = await allocate({
      debit_note_id: note.id,
      supplier_invoice_id: draft.id,
      amount_cents: 6_000,
    });
    expect(byNote.status).toBe(201);
    expect((await books.call('GET', `debit-notes/${note.id}`)).body.status).toBe('impute');

    // An incoming payment cannot settle a supplier invoice: money goes out to a supplier.
    const wrongWay = await payment('incoming', 18_000, { supplier_id: books.supplier.id });
    await act(`payments/${wrongWay.id}`, 'post');
    const refused = await allocate({
      payment_id: wrongWay.id,
      supplier_invoice_id: draft.id,
      amount_cents: 18_000,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'requete_invalide',
      params: { reason: 'direction' },
    });

    const paid = await payment('outgoing', 18_000, { supplier_id: books.supplier.id });
    await act(`payments/${paid.id}`, 'post');
    expect((await entryOf(`payment_id=eq.${paid.id}`)).lines).toEqual([
      expect.objectContaining({ account_id: books.accounts.payable.id, debit_cents: 18_000 }),
      expect.objectContaining({ account_id: books.accounts.bank.id, credit_cents: 18_000 }),
    ]);
    expect(
      (await allocate({ payment_id: paid.id, supplier_invoice_id: draft.id, amount_cents: 18_000 }))
        .status,
    ).toBe(201);
    expect((await books.call('GET', `supplier-invoices/${draft.id}`)).body).toMatchObject({
      status: 'paye',
      amount_due_cents: 0,
    });

    // The 180.00 received from the supplier (money in, allocated to nothing) is credited to the
    // payable: until a debit note takes it, it is owed back. The aged payables still equal the
    // payable account.
    const { payables } = await expectAgedEqualsTrialBalance();
    const supplier = payables.parties.find(
      (p: { party_id: string }) => p.party_id === books.supplier.id,
    );
    expect(supplier.total_cents).toBe(18_000);
  });
});

describe('refunds', () => {
  it('a credit note settles part of an invoice; its rest is refunded by an outgoing payment to the customer', async () => {
    const invoice = await books.create('invoices', {
      customer_id: books.customer.id,
      invoice_date: DAY,
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('1', 10_000, '20')],
    });
    await act(`invoices/${invoice.id}`, 'issue');
    const note = await books.create('credit-notes', {
      invoice_id: invoice.id,
      customer_id: books.customer.id,
      credit_note_date: DAY,
      reason: 'return',
      currency: 'EUR',
      lines: [line('1', 3_000, '20')],
    });
    await act(`credit-notes/${note.id}`, 'issue');
    const byNote = await allocate({
      credit_note_id: note.id,
      invoice_id: invoice.id,
      amount_cents: 2_400,
    });
    expect(byNote.body).toMatchObject({ amount_cents: 2_400 });
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'partiellement_paye',
      amount_due_cents: 9_600,
    });
    expect((await books.call('GET', `credit-notes/${note.id}`)).body).toMatchObject({
      status: 'partiellement_paye',
      amount_due_cents: 1_200,
    });

    // Money received cannot settle a credit note; money paid cannot settle an invoice.
    const incoming = await payment('incoming', 1_200, { customer_id: books.customer.id });
    await act(`payments/${incoming.id}`, 'post');
    const intoNote = await allocate({
      payment_id: incoming.id,
      credit_note_id: note.id,
      amount_cents: 1_200,
    });
    expect(intoNote.body).toMatchObject({
      code: 'requete_invalide',
      params: { reason: 'direction' },
    });

    const refund = await payment('outgoing', 1_200, { customer_id: books.customer.id });
    await act(`payments/${refund.id}`, 'post');
    expect((await entryOf(`payment_id=eq.${refund.id}`)).lines).toEqual([
      expect.objectContaining({
        account_id: books.accounts.receivable.id,
        debit_cents: 1_200,
        customer_id: books.customer.id,
      }),
      expect.objectContaining({ account_id: books.accounts.bank.id, credit_cents: 1_200 }),
    ]);
    const intoInvoice = await allocate({
      payment_id: refund.id,
      invoice_id: invoice.id,
      amount_cents: 1_200,
    });
    expect(intoInvoice.body).toMatchObject({ params: { reason: 'direction' } });
    const refunded = await allocate({
      payment_id: refund.id,
      credit_note_id: note.id,
      amount_cents: 1_200,
    });
    expect(refunded.status).toBe(201);
    expect((await books.call('GET', `credit-notes/${note.id}`)).body).toMatchObject({
      status: 'impute',
      amount_due_cents: 0,
    });

    // The customer owes the invoice's rest, less the unallocated 12.00 received: 96.00 − 12.00.
    const { receivables } = await expectAgedEqualsTrialBalance();
    const customer = receivables.parties.find(
      (p: { party_id: string }) => p.party_id === books.customer.id,
    );
    expect(customer.total_cents).toBe(8_400);
  });

  it('a payment to post names exactly one party', async () => {
    const both = await payment('incoming', 500, {
      customer_id: books.customer.id,
      supplier_id: books.supplier.id,
    });
    const twice = await books.call('POST', `payments/${both.id}/post`);
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ code: 'requete_invalide' });
    const none = await payment('incoming', 500, {});
    expect((await books.call('POST', `payments/${none.id}/post`)).status).toBe(400);
    // Nothing kept: both are still drafts, and no entry names them.
    for (const p of [both, none]) {
      expect((await books.call('GET', `payments/${p.id}`)).body.status).toBe('brouillon');
      expect((await books.call('GET', `journal-entries?payment_id=eq.${p.id}`)).body.data).toEqual(
        [],
      );
    }
  });
});

describe("receivable and payable accounts are the parties' ledgers", () => {
  it('a line on 411 names its customer, a customer line posts to a receivable account; settings likewise', async () => {
    // A manual entry on the receivable account without a customer: the aged report would miss it.
    const entry = await books.create('journal-entries', {
      journal_id: books.journals.misc.id,
      entry_date: DAY,
      entry_type: 'standard',
      currency: 'EUR',
      lines: [
        { account_id: books.accounts.receivable.id, debit_cents: 1_000, credit_cents: 0 },
        { account_id: books.accounts.revenue.id, debit_cents: 0, credit_cents: 1_000 },
      ],
    });
    const refused = await books.call('POST', `journal-entries/${entry.id}/post`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'compte_invalide',
      params: { account_id: books.accounts.receivable.id, reason: 'party_required' },
    });

    // A customer whose own receivable account is an income account: its invoice cannot post.
    const odd = await books.create('customers', {
      name: 'Client au compte faux',
      customer_type: 'company',
      active: true,
      receivable_account_id: books.accounts.revenue.id,
    });
    const invoice = await books.create('invoices', {
      customer_id: odd.id,
      invoice_date: DAY,
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('1', 1_000, '0')],
    });
    const issue = await books.call('POST', `invoices/${invoice.id}/issue`);
    expect(issue.status).toBe(422);
    expect(issue.body).toMatchObject({
      code: 'compte_invalide',
      params: { reason: 'not_party_account' },
    });
    expect((await books.call('GET', `invoices/${invoice.id}`)).body.status).toBe('brouillon');

    const settings = await books.call('PUT', 'settings/accounting', {
      accounts: { receivable: books.accounts.bank.id },
    });
    expect(settings.status).toBe(422);
    expect(settings.body).toMatchObject({
      code: 'compte_invalide',
      params: { setting: 'receivable', reason: 'not_party_account' },
    });
    await expectAgedEqualsTrialBalance();
  });
});

describe('closed periods', () => {
  it('refuse postings dated in them; a reversal takes the original date, else today, else the first open day', async () => {
    const periods = (await books.call('GET', 'accounting-periods?page_size=200')).body.data as {
      id: string;
      start_date: string;
      end_date: string;
    }[];
    const periodOf = (day: string) => {
      const period = periods.find((p) => p.start_date <= day && day <= p.end_date);
      if (!period) throw new Error(`no period for ${day}`);
      return period;
    };
    const invoice = async (day: string) => {
      const draft = await books.create('invoices', {
        customer_id: books.customer.id,
        invoice_date: day,
        due_date: day,
        currency: 'EUR',
        lines: [line('1', 2_000, '0')],
      });
      await act(`invoices/${draft.id}`, 'issue');
      return draft.id;
    };
    const reversalDate = async (id: string) => {
      await act(`invoices/${id}`, 'cancel');
      const { body } = await books.call(
        'GET',
        `journal-entries?invoice_id=eq.${id}&entry_type=eq.reversal`,
      );
      expect(body.data).toHaveLength(1);
      return body.data[0].entry_date as string;
    };
    // Next year's months (provisioning made them; none holds today).
    const next = new Date().getUTCFullYear() + 1;
    // Open: the reversal is dated like the original.
    expect(await reversalDate(await invoice(`${next}-05-05`))).toBe(`${next}-05-05`);

    // The original's period closed: the day of the cancellation.
    const june = await invoice(`${next}-06-05`);
    const july = await invoice(`${next}-07-05`);
    await act(`accounting-periods/${periodOf(`${next}-06-05`).id}`, 'close');
    const today = new Date().toISOString().slice(0, 10);
    expect(await reversalDate(june)).toBe(today);

    // Nothing more is posted in June.
    const late = await books.create('invoices', {
      customer_id: books.customer.id,
      invoice_date: `${next}-06-20`,
      due_date: `${next}-06-20`,
      currency: 'EUR',
      lines: [line('1', 2_000, '0')],
    });
    const refused = await books.call('POST', `invoices/${late.id}/issue`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'periode_cloturee' });

    // The original's period and today's closed: the first day after today's period.
    await act(`accounting-periods/${periodOf(`${next}-07-05`).id}`, 'close');
    const current = periodOf(today);
    await act(`accounting-periods/${current.id}`, 'close');
    const after = new Date(`${current.end_date}T00:00:00Z`);
    after.setUTCDate(after.getUTCDate() + 1);
    expect(await reversalDate(july)).toBe(after.toISOString().slice(0, 10));
    await expectAgedEqualsTrialBalance();
  });
});
