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

describe('what an allocation posts', () => {
  const entriesOf = async (allocationId: string) =>
    (
      await books.call(
        'GET',
        `journal-entries?source_type=eq.payment_allocation&source_id=eq.${allocationId}`,
      )
    ).body.data as {
      status: string;
      lines: { account_id: string; debit_cents: number; credit_cents: number }[];
    }[];

  it('a write-off settles the rest to the write-off account, and goes when the allocation goes', async () => {
    const invoice = await issuedInvoice(10_000);
    const payment = await postedPayment(9_950);
    const res = await books.call('POST', 'payment-allocations', {
      payment_id: payment.id,
      invoice_id: invoice.id,
      amount_cents: 9_950,
      write_off_cents: 50,
      allocation_date: '2026-03-21',
      currency: 'EUR',
    });
    expect(res.status).toBe(201);
    expect((await books.call('GET', `invoices/${invoice.id}`)).body).toMatchObject({
      status: 'paye',
      amount_due_cents: 0,
    });
    const [entry] = await entriesOf(res.body.id);
    expect(entry!.lines).toEqual([
      expect.objectContaining({
        account_id: books.accounts.write_off.id,
        debit_cents: 50,
        credit_cents: 0,
      }),
      expect.objectContaining({
        account_id: books.accounts.receivable.id,
        debit_cents: 0,
        credit_cents: 50,
      }),
    ]);
    expect((await books.call('DELETE', `payment-allocations/${res.body.id}`)).status).toBe(204);
    expect((await entriesOf(res.body.id)).map((e) => e.status).sort()).toEqual([
      'annule',
      'comptabilise',
    ]);
    expect((await books.call('GET', `invoices/${invoice.id}`)).body.amount_due_cents).toBe(10_000);
  });

  it('a dollar invoice at 1.10 paid at 1.20: the 10.00 € realised gain is posted, the receivable cleared', async () => {
    const draft = await books.create('invoices', {
      customer_id: books.customer.id,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'USD',
      exchange_rate: '1.1',
      lines: [line('1', 10_000, '0')],
    });
    const issued = await books.call('POST', `invoices/${draft.id}/issue`);
    expect(issued.status).toBe(200);
    const invoiceEntry = (await books.call('GET', `journal-entries?invoice_id=eq.${draft.id}`)).body
      .data[0];
    expect(invoiceEntry.lines[0]).toMatchObject({
      debit_cents: 11_000,
      currency: 'USD',
      amount_currency_cents: 10_000,
    });
    const payment = await books.create('payments', {
      direction: 'incoming',
      amount_cents: 10_000,
      currency: 'USD',
      exchange_rate: '1.2',
      method: 'bank_transfer',
      paid_on: '2026-03-25',
      customer_id: books.customer.id,
      journal_id: books.journals.bank.id,
    });
    expect((await books.call('POST', `payments/${payment.id}/post`)).status).toBe(200);
    const res = await books.call('POST', 'payment-allocations', {
      payment_id: payment.id,
      invoice_id: draft.id,
      amount_cents: 10_000,
      allocation_date: '2026-03-25',
      currency: 'USD',
    });
    expect(res.status).toBe(201);
    const [entry] = await entriesOf(res.body.id);
    expect(entry!.lines).toEqual([
      expect.objectContaining({ account_id: books.accounts.receivable.id, debit_cents: 1_000 }),
      expect.objectContaining({ account_id: books.accounts.exchange_gain.id, credit_cents: 1_000 }),
    ]);
    // The three entries leave nothing on the receivable for this invoice and payment.
    const ids = [
      invoiceEntry.id,
      (await books.call('GET', `journal-entries?payment_id=eq.${payment.id}`)).body.data[0].id,
      (entry as unknown as { id: string }).id,
    ];
    const receivable = (await books.ledger())
      .filter((l) => ids.includes(l.entry_id) && l.account_id === books.accounts.receivable.id)
      .reduce((a, l) => a + l.debit - l.credit, 0);
    expect(receivable).toBe(0);
  });

  it('a foreign-currency document without a rate takes the latest one, else 422 taux_de_change_manquant', async () => {
    const draft = await books.create('invoices', {
      customer_id: books.customer.id,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'CHF',
      lines: [line('1', 10_000, '0')],
    });
    const refused = await books.call('POST', `invoices/${draft.id}/issue`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'taux_de_change_manquant',
      params: { currency: 'CHF', date: '2026-03-10' },
    });
    const chf = await books.create('currencies', {
      code: 'CHF',
      name: 'Franc suisse',
      minor_units: 2,
    });
    await books.create('exchange-rates', {
      currency_id: chf.id,
      rate_date: '2026-03-01',
      rate: '1.05',
      source: 'manual',
    });
    const issued = await books.call('POST', `invoices/${draft.id}/issue`);
    expect(issued.status).toBe(200);
    const entry = (await books.call('GET', `journal-entries?invoice_id=eq.${draft.id}`)).body
      .data[0];
    expect(entry.lines[0]).toMatchObject({ debit_cents: 10_500, amount_currency_cents: 10_000 });
  });
});

describe('what an allocation changes is recorded like any change', () => {
  it("the invoice's new versions and events: status_changed (action settle) when its status moves, updated otherwise; the payment's too", async () => {
    const invoice = await issuedInvoice(10_000);
    const payment = await postedPayment(10_000);
    const events = async (id: string) =>
      (
        await portal.tdb.pool.query<{ type: string; data: Record<string, unknown> }>(
          'SELECT type, data FROM events WHERE tenant_id = $1 AND resource_id = $2 ORDER BY id',
          [books.tenant.id, id],
        )
      ).rows;
    const before = (await events(invoice.id)).length;
    const first = await allocate(payment.id, invoice.id, 4_000);
    const all = await allocate(payment.id, invoice.id, 6_000);
    expect(first.status).toBe(201);
    const settled = (await events(invoice.id)).slice(before);
    expect(settled.map((e) => e.type)).toEqual([
      'invoice.status_changed',
      'invoice.status_changed',
    ]);
    expect(settled[0]!.data).toMatchObject({
      previous_status: 'emis',
      action: 'settle',
      object: { status: 'partiellement_paye', amount_due_cents: 6_000 },
    });
    expect(settled[1]!.data).toMatchObject({
      previous_status: 'partiellement_paye',
      object: { status: 'paye', amount_due_cents: 0 },
    });
    // Deleting the second allocation: back to partly paid, recorded too.
    expect((await books.call('DELETE', `payment-allocations/${all.body.id}`)).status).toBe(204);
    expect((await events(invoice.id)).at(-1)).toMatchObject({
      type: 'invoice.status_changed',
      data: { previous_status: 'paye', object: { status: 'partiellement_paye' } },
    });
    // The payment's allocated amount moved without a status: payment.updated each time.
    expect((await events(payment.id)).map((e) => e.type).slice(-3)).toEqual([
      'payment.updated',
      'payment.updated',
      'payment.updated',
    ]);
    // Every version has its history entry: no gap, and each names the settlement.
    const history = (await books.call('GET', `invoices/${invoice.id}/history?page_size=50`)).body
      .data as { version: number; action: string; changes: Record<string, unknown> }[];
    // Created, issued, settled three times: versions 1 to 5, one entry each.
    expect(history.map((h) => h.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    const settles = history.filter((h) => h.action === 'settle');
    expect(settles).toHaveLength(3);
    expect(settles.some((h) => 'amount_due_cents' in h.changes && 'status' in h.changes)).toBe(
      true,
    );
  });
});
