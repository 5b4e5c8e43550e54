import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal } from '../../test/harness';
import { booksTenant, line } from '../../test/books-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  books = await booksTenant(portal);
});
afterAll(() => portal.tdb.close());

async function issuedInvoice(cents: number) {
  const draft = await books.create('invoices', {
    customer_id: books.customer.id,
    invoice_date: '2026-03-10',
    due_date: '2026-04-09',
    currency: 'EUR',
    lines: [line('1', cents, '0')],
  });
  const issued = await books.call('POST', `invoices/${draft.id}/issue`);
  if (issued.status !== 200) throw new Error(JSON.stringify(issued.body));
  return issued.body as { id: string; total_cents: number };
}

async function postedPayment(amount_cents: number) {
  const draft = await books.create('payments', {
    direction: 'incoming',
    amount_cents,
    currency: 'EUR',
    method: 'bank_transfer',
    paid_on: '2026-03-20',
    customer_id: books.customer.id,
    journal_id: books.journals.bank.id,
  });
  const posted = await books.call('POST', `payments/${draft.id}/post`);
  if (posted.status !== 200) throw new Error(JSON.stringify(posted.body));
  return posted.body as { id: string };
}

const allocate = (payment_id: string, invoice_id: string, amount_cents: number) =>
  books.call('POST', 'payment-allocations', {
    payment_id,
    invoice_id,
    amount_cents,
    allocation_date: '2026-03-21',
    currency: 'EUR',
  });

describe('settlement by allocations (SPEC §17)', () => {
  it('a posted payment debits the bank and credits the receivable', async () => {
    const payment = await postedPayment(12_000);
    const entry = (await books.call('GET', `journal-entries?payment_id=eq.${payment.id}`)).body
      .data[0];
    expect(entry.lines).toEqual([
      expect.objectContaining({ account_id: books.accounts.bank.id, debit_cents: 12_000 }),
      expect.objectContaining({
        account_id: books.accounts.receivable.id,
        credit_cents: 12_000,
        customer_id: books.customer.id,
      }),
    ]);
    expect((await books.call('GET', `payments/${payment.id}`)).body).toMatchObject({
      status: 'comptabilise',
      allocated_cents: 0,
      unallocated_cents: 12_000,
    });
  });

  it('partly, then fully: amount due and status follow; deleting an allocation gives it back', async () => {
    const invoice = await issuedInvoice(10_000);
    const payment = await postedPayment(10_000);
    const first = await allocate(payment.id, invoice.id, 4_000);
    expect(first.status).toBe(201);
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'partiellement_paye',
      amount_due_cents: 6_000,
    });
    const rest = await allocate(payment.id, invoice.id, 6_000);
    expect(rest.status).toBe(201);
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paye',
      amount_due_cents: 0,
    });
    expect((await books.call('GET', `payments/${payment.id}`)).body).toMatchObject({
      allocated_cents: 10_000,
      unallocated_cents: 0,
    });
    expect((await books.call('DELETE', `payment-allocations/${rest.body.id}`)).status).toBe(204);
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'partiellement_paye',
      amount_due_cents: 6_000,
    });
  });

  it('above what the payment has left or the invoice owes: 422 montant_depasse; a draft: refused', async () => {
    const invoice = await issuedInvoice(5_000);
    const payment = await postedPayment(8_000);
    const over = await allocate(payment.id, invoice.id, 5_001);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: 'montant_depasse',
      params: { available_cents: 5_000 },
    });
    const small = await postedPayment(1_000);
    const overPayment = await allocate(small.id, invoice.id, 1_500);
    expect(overPayment.body).toMatchObject({
      code: 'montant_depasse',
      params: { available_cents: 1_000 },
    });
    const draft = await books.create('payments', {
      direction: 'incoming',
      amount_cents: 1_000,
      currency: 'EUR',
      method: 'cash',
      paid_on: '2026-03-20',
      customer_id: books.customer.id,
    });
    const fromDraft = await allocate(draft.id, invoice.id, 500);
    expect(fromDraft.status).toBe(400);
    expect(fromDraft.body.params.reason).toBe('not_posted');
  });

  it('cancelling an invoice that allocations settle: 409 document_lettre, nothing reversed', async () => {
    const invoice = await issuedInvoice(3_000);
    const payment = await postedPayment(3_000);
    const allocation = await allocate(payment.id, invoice.id, 1_000);
    const cancelled = await books.call('POST', `invoices/${invoice.id}/cancel`);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body).toMatchObject({
      code: 'document_lettre',
      params: { allocations: [allocation.body.id] },
    });
    expect((await books.call('GET', `invoices/${invoice.id}`)).body.status).toBe(
      'partiellement_paye',
    );
  });

  it('concurrently: twenty allocations of 1,000 against an invoice of 10,000 settle exactly ten', async () => {
    const invoice = await issuedInvoice(10_000);
    const payments = await Promise.all(Array.from({ length: 4 }, () => postedPayment(10_000)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => allocate(payments[i % 4]!.id, invoice.id, 1_000)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    // The rest find nothing left: montant_depasse, what is left being 0.
    expect(answers.filter((a) => a.status !== 201).map((a) => [a.status, a.body.code])).toEqual(
      Array.from({ length: 10 }, () => [422, 'montant_depasse']),
    );
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paye',
      amount_due_cents: 0,
    });
    const allocated = await Promise.all(
      payments.map(async (p) => (await books.call('GET', `payments/${p.id}`)).body.allocated_cents),
    );
    expect(allocated.reduce((a: number, b: number) => a + b, 0)).toBe(10_000);
  });
});
