import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { booksTenant, line } from '../../test/books-harness';
import { createTestPortal, session } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  books = await booksTenant(portal);
});
afterAll(() => portal.tdb.close());

const invoice = (lines: unknown[], extra = {}) =>
  books.create('invoices', {
    customer_id: books.customer.id,
    invoice_date: '2026-03-10',
    due_date: '2026-04-09',
    currency: 'EUR',
    lines,
    ...extra,
  });

describe('issuing an invoice posts it (SPEC §17)', () => {
  it('3 × 1.05 € at 5.5 %: 0.17 € of tax; debit receivable 3.32, credit revenue 3.15 and VAT 0.17', async () => {
    const draft = await invoice([
      line('1', 105, '5.5'),
      line('1', 105, '5.5'),
      line('1', 105, '5.5'),
    ]);
    expect(draft).toMatchObject({ subtotal_cents: 315, tax_cents: 17, total_cents: 332 });
    const issued = await books.call('POST', `invoices/${draft.id}/issue`);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ status: 'emis', amount_due_cents: 332 });

    const entries = await books.call('GET', `journal-entries?invoice_id=eq.${draft.id}`);
    expect(entries.body.data).toHaveLength(1);
    const entry = entries.body.data[0];
    expect(entry).toMatchObject({
      status: 'comptabilise',
      entry_type: 'standard',
      journal_id: books.journals.sales.id,
      entry_date: '2026-03-10',
    });
    expect(entry.posted_at).toBeTruthy();
    const byAccount = (id: string) =>
      entry.lines.find((l: { account_id: string }) => l.account_id === id);
    expect(byAccount(books.accounts.receivable.id)).toMatchObject({
      debit_cents: 332,
      credit_cents: 0,
      customer_id: books.customer.id,
      due_date: '2026-04-09',
    });
    expect(byAccount(books.accounts.revenue.id)).toMatchObject({
      debit_cents: 0,
      credit_cents: 315,
    });
    expect(byAccount(books.accounts.vat_collected.id)).toMatchObject({ credit_cents: 17 });

    const ledger = (await books.ledger()).filter((l) => l.entry_id === entry.id);
    expect(ledger).toHaveLength(3);
    expect(ledger.reduce((a, l) => a + l.debit - l.credit, 0)).toBe(0);
  });

  it('cancelling an issued invoice posts the reversal; the two net to zero on every account', async () => {
    const draft = await invoice([line('2', 14_900, '20')]);
    await books.call('POST', `invoices/${draft.id}/issue`);
    const cancelled = await books.call('POST', `invoices/${draft.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'annule', amount_due_cents: 0 });
    const entries = (
      await books.call('GET', `journal-entries?invoice_id=eq.${draft.id}&order=posted_at.asc`)
    ).body.data;
    expect(
      entries.map((e: { entry_type: string; status: string }) => [e.entry_type, e.status]),
    ).toEqual([
      ['standard', 'annule'],
      ['reversal', 'comptabilise'],
    ]);
    expect(entries[1].reversed_entry_id).toBe(entries[0].id);
    const lines = (await books.ledger()).filter((l) =>
      entries.some((e: { id: string }) => e.id === l.entry_id),
    );
    const net = new Map<string, number>();
    for (const l of lines) net.set(l.account_id, (net.get(l.account_id) ?? 0) + l.debit - l.credit);
    expect([...net.values()].every((v) => v === 0)).toBe(true);
    expect(lines).toHaveLength(6);
  });

  it('a posting without its settings, or to a group account, is refused and leaves nothing', async () => {
    const group = await books.create('accounts', {
      code: '70',
      name: 'Ventes',
      account_type: 'income',
      is_group: true,
      reconcilable: false,
    });
    const refused = await books.call('PUT', 'settings/accounting', {
      accounts: { revenue: group.id },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'compte_invalide',
      params: { setting: 'revenue', reason: 'group' },
    });
    const product = await books.create('products', {
      sku: 'P-GROUP',
      name: 'Posted to a group',
      product_type: 'service',
      unit_of_measure: 'unit',
      active: true,
      revenue_account_id: group.id,
    });
    const before = (await books.ledger()).length;
    const draft = await invoice([line('1', 1_000, '20', { product_id: product.id })]);
    const issued = await books.call('POST', `invoices/${draft.id}/issue`);
    expect(issued.status).toBe(422);
    expect(issued.body).toMatchObject({
      code: 'compte_invalide',
      params: { account_id: group.id, reason: 'group' },
    });
    expect((await books.call('GET', `invoices/${draft.id}`)).body.status).toBe('brouillon');
    expect((await books.ledger()).length).toBe(before);
  });
});

describe('journal entries people enter', () => {
  const entry = (lines: unknown[]) =>
    books.create('journal-entries', {
      journal_id: books.journals.misc.id,
      entry_date: '2026-03-31',
      entry_type: 'standard',
      currency: 'EUR',
      lines,
    });
  const debit = (account_id: string, debit_cents: number) => ({
    account_id,
    debit_cents,
    credit_cents: 0,
  });
  const credit = (account_id: string, credit_cents: number) => ({
    account_id,
    debit_cents: 0,
    credit_cents,
  });

  it('one line of 1,000.00 € debit and nothing credited: 422 ecriture_desequilibree, nothing posted', async () => {
    const draft = await entry([debit(books.accounts.expense.id, 100_000)]);
    const posted = await books.call('POST', `journal-entries/${draft.id}/post`);
    expect(posted.status).toBe(422);
    expect(posted.body).toMatchObject({
      code: 'ecriture_desequilibree',
      params: { debit_cents: 100_000, credit_cents: 0 },
    });
    const lopsided = await entry([
      debit(books.accounts.expense.id, 100_000),
      credit(books.accounts.bank.id, 99_999),
    ]);
    expect((await books.call('POST', `journal-entries/${lopsided.id}/post`)).body.params).toEqual({
      debit_cents: 100_000,
      credit_cents: 99_999,
    });
    expect(
      (await books.ledger()).filter((l) => [draft.id, lopsided.id].includes(l.entry_id)),
    ).toEqual([]);
  });

  it('a balanced entry posts; posted, it can be neither changed nor deleted, and cancelling reverses it', async () => {
    const draft = await entry([
      debit(books.accounts.expense.id, 5_000),
      credit(books.accounts.bank.id, 5_000),
    ]);
    const posted = await books.call('POST', `journal-entries/${draft.id}/post`);
    expect(posted.status).toBe(200);
    expect(posted.body.posted_at).toBeTruthy();
    const patch = await books.call('PATCH', `journal-entries/${draft.id}`, {
      description: 'changed',
    });
    expect(patch.status).toBe(409);
    expect((await books.call('DELETE', `journal-entries/${draft.id}`)).status).toBe(409);
    const cancelled = await books.call('POST', `journal-entries/${draft.id}/cancel`);
    expect(cancelled.body.status).toBe('annule');
    const reversal = await books.call('GET', `journal-entries?reversed_entry_id=eq.${draft.id}`);
    expect(reversal.body.data).toHaveLength(1);
    expect(reversal.body.data[0].lines.map((l: { debit_cents: number }) => l.debit_cents)).toEqual([
      0, 5_000,
    ]);
  });
});

describe('PostgreSQL refuses, as the application’s own role, what would break the books', () => {
  const asApp = async <T>(sql: string, values: unknown[]): Promise<T> => {
    const client = await portal.tdb.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [books.tenant.id]);
      await client.query('SET LOCAL ROLE erp_app');
      return (await client.query(sql, values)) as T;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };

  it('an UPDATE or DELETE of the ledger, an UPDATE of a posted entry’s lines, an unbalanced posted entry', async () => {
    const draft = await invoice([line('1', 10_000, '20')]);
    await books.call('POST', `invoices/${draft.id}/issue`);
    const posted = (await books.call('GET', `journal-entries?invoice_id=eq.${draft.id}`)).body
      .data[0];
    await expect(
      asApp('UPDATE ledger_lines SET debit_cents = debit_cents + 1 WHERE entry_id = $1', [
        posted.id,
      ]),
    ).rejects.toMatchObject({ code: '42501' });
    await expect(
      asApp('DELETE FROM ledger_lines WHERE entry_id = $1', [posted.id]),
    ).rejects.toMatchObject({
      code: '42501',
    });
    await expect(
      asApp(
        `UPDATE journal_entries SET lines = jsonb_set(lines, '{0,debit_cents}', '1') WHERE id = $1`,
        [posted.id],
      ),
    ).rejects.toMatchObject({ code: 'EP006' });
    await expect(
      asApp('DELETE FROM journal_entries WHERE id = $1', [posted.id]),
    ).rejects.toMatchObject({
      code: 'EP006',
    });
    await expect(
      asApp(
        `INSERT INTO journal_entries (tenant_id, number, journal_id, entry_date, entry_type, currency, lines, status, posted_at)
         VALUES ($1, 'JE-X', $2, '2026-03-01', 'standard', 'EUR', $3::jsonb, 'comptabilise', now())`,
        [
          books.tenant.id,
          books.journals.misc.id,
          JSON.stringify([
            { account_id: books.accounts.bank.id, debit_cents: 100_000, credit_cents: 0 },
          ]),
        ],
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: 'journal_entries_posted_balanced' });
  });
});

describe('reports from the ledger', () => {
  it('the general ledger lists an account’s lines with a running balance, page after page', async () => {
    for (const cents of [1_000, 2_000, 3_000]) {
      const draft = await invoice([line('1', cents, '0')], {
        invoice_date: '2026-05-0' + String(cents / 1_000),
      });
      await books.call('POST', `invoices/${draft.id}/issue`);
    }
    const path = `reports/general-ledger?account_id=${books.accounts.revenue.id}&from=2026-05-01&to=2026-05-31&page_size=2`;
    const first = await books.call('GET', path);
    expect(first.status).toBe(200);
    // The earlier tests' March invoices are the opening balance of May.
    const opening = first.body.opening_cents;
    expect(opening).toBeLessThan(0);
    expect(
      first.body.data.map((l: { credit_cents: number; balance_cents: number }) => [
        l.credit_cents,
        l.balance_cents,
      ]),
    ).toEqual([
      [1_000, opening - 1_000],
      [2_000, opening - 3_000],
    ]);
    const second = await books.call('GET', `${path}&cursor=${first.body.next_cursor}`);
    expect(second.body.opening_cents).toBe(opening);
    expect(second.body.data.map((l: { balance_cents: number }) => l.balance_cents)).toEqual([
      opening - 6_000,
    ]);
    expect(second.body.next_cursor).toBeNull();
    expect(second.body.data[0].document).toMatchObject({ type: 'invoice' });
    const bad = await books.call('GET', `${path}&cursor=nonsense`);
    expect(bad.status).toBe(400);
    const tb = (await books.call('GET', 'reports/trial-balance?from=2026-05-01&to=2026-05-31'))
      .body;
    const revenue = tb.accounts.find(
      (a: { account_id: string }) => a.account_id === books.accounts.revenue.id,
    );
    expect(revenue).toMatchObject({
      opening_cents: opening,
      credit_cents: 6_000,
      closing_cents: opening - 6_000,
    });
    expect(tb.totals.debit_cents).toBe(tb.totals.credit_cents);
  });
});

describe('the FEC (article A47 A-1 LPF)', () => {
  it('one line per posted line of the year, 18 tab-separated columns, entries numbered per journal without gaps', async () => {
    const years = (await books.call('GET', 'fiscal-years?name=eq.FY%202026')).body.data;
    expect(years).toHaveLength(1);
    const res = await portal.request(`/api/v1/reports/fec?fiscal_year_id=${years[0].id}`, {
      headers: books.admin,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/tab-separated-values');
    expect(res.headers.get('content-disposition')).toMatch(/FEC20261231\.txt"$/);
    // Only the file's last line break is dropped: trailing empty columns end in tabs.
    const [head, ...lines] = (await res.text()).replace(/\r\n$/, '').split('\r\n');
    expect(head!.split('\t')).toHaveLength(18);
    expect(head!.startsWith('JournalCode\tJournalLib\tEcritureNum')).toBe(true);
    const rows = lines.map((l) => l.split('\t'));
    expect(rows.filter((r) => r.length !== 18)).toEqual([]);
    const inYear = await portal.tdb.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_lines WHERE tenant_id = $1 AND entry_date BETWEEN '2026-01-01' AND '2026-12-31'`,
      [books.tenant.id],
    );
    expect(rows).toHaveLength(inYear.rows[0]!.n);
    // Per journal, the entries are numbered 1, 2, 3… without gaps.
    const byJournal = new Map<string, Set<number>>();
    for (const r of rows)
      byJournal.set(r[0]!, (byJournal.get(r[0]!) ?? new Set()).add(Number(r[2])));
    for (const numbers of byJournal.values())
      expect([...numbers].sort((a, b) => a - b)).toEqual(
        Array.from({ length: numbers.size }, (_, i) => i + 1),
      );
    // Amounts with a decimal comma; the debits equal the credits.
    const cents = (v: string) => Math.round(Number(v.replace(',', '.')) * 100);
    const badAmounts = rows.filter(
      (r) => !/^\d+,\d{2}$/.test(r[11]!) || !/^\d+,\d{2}$/.test(r[12]!),
    );
    expect(badAmounts).toEqual([]);
    expect(rows.reduce((a, r) => a + cents(r[11]!), 0)).toBe(
      rows.reduce((a, r) => a + cents(r[12]!), 0),
    );
    expect(rows.filter((r) => !/^\d{8}$/.test(r[3]!) || !/^\d{8}$/.test(r[15]!))).toEqual([]);
  });
});

describe('who may read and change the books', () => {
  it('a member without accounting:read is refused the reports; only an admin changes the settings; another tenant sees nothing', async () => {
    const reader = await portal.addUser(books.tenant, ['crm:reader']);
    const asReader = session(reader.token, books.tenant.slug);
    for (const path of [
      'reports/trial-balance',
      'reports/aged-receivables',
      'settings/accounting',
    ]) {
      const res = await portal.json(await portal.request(`/api/v1/${path}`, { headers: asReader }));
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({
        code: 'acces_refuse',
        params: { required: 'accounting:read' },
      });
    }
    const accountant = await portal.addUser(books.tenant, ['accounting:editor']);
    const put = await portal.json(
      await portal.request('/api/v1/settings/accounting', {
        method: 'PUT',
        headers: {
          ...session(accountant.token, books.tenant.slug),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ company_currency: 'USD' }),
      }),
    );
    expect(put.status).toBe(403);
    expect(put.body.params.required).toBe('admin');
    const other = await booksTenant(portal);
    const theirs = (await other.call('GET', 'reports/trial-balance?from=2026-01-01&to=2026-12-31'))
      .body;
    expect(theirs.accounts).toEqual([]);
    const gl = await other.call(
      'GET',
      `reports/general-ledger?account_id=${books.accounts.revenue.id}`,
    );
    expect(gl.status).toBe(404);
  });
});
