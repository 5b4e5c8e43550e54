/**
 * The books in the console (SPEC §17, §14) in Debian's Chromium against the real portal: an
 * invoice issued and a payment posted through the API; the invoice's page shows its postings
 * (receivable, revenue and VAT lines, posted) and its settlement; the payment is allocated from
 * there (first over what is due: the portal's `montant_depasse` shown), then the allocation is
 * deleted and made again; an issued credit note settles part of the rest from there too;
 * Reports: the trial balance balanced, the general ledger of 411 a page at a time, aged
 * receivables, the FEC downloaded through the session (18 tab-separated
 * columns); Settings → Accounting. With the mouse, then by keyboard alone; axe-core on every
 * page; screenshots at 1280 and 375 px. Then an accountant who is not an admin reads the
 * settings without a form, and a sales reader has no reports. The console must be built first.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpCapture } from '../../apps/worker/test/smtp-capture';
import { eventually, type Platform, startPlatform } from '../test/platform';
import { type Actor, keyboard, mouse } from './console-actors';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshots,
  watchBrowserErrors,
} from './harness';

const CONSOLE_DIST = path.resolve(import.meta.dirname, '../../apps/console/dist/index.html');
const FEC_COLUMNS =
  'JournalCode JournalLib EcritureNum EcritureDate CompteNum CompteLib CompAuxNum CompAuxLib PieceRef PieceDate EcritureLib Debit Credit EcritureLet DateLet ValidDate Montantdevise Idevise'.split(
    ' ',
  );

type Row = Record<string, unknown>;
type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Row }>;

let platform: Platform;
let browser: Browser;
let api: Call;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  if (!existsSync(CONSOLE_DIST))
    throw new Error('apps/console/dist is missing: run `pnpm --filter @erp/console build` first');
  smtp = await startSmtpCapture();
  [platform, browser] = await Promise.all([
    startPlatform({ worker: { SMTP_URL: smtp.url, MAIL_FROM: 'ERP <no-reply@e2e.test>' } }),
    launchBrowser(),
  ]);
  api = await apiSession(platform);
});

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await smtp?.close();
});

/**
 * A new customer (its receivable the settings' own), an issued invoice of 100.00 + 20 % VAT and
 * a posted payment of 200.00 from it.
 */
async function invoiceAndPayment(mode: string) {
  const created = await api('POST', '/customers', {
    name: `Comptoir des Livres (${mode})`,
    customer_type: 'company',
    active: true,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const customer = created.body;
  const draft = await api('POST', '/invoices', {
    customer_id: customer.id,
    invoice_date: today,
    due_date: today,
    currency: 'EUR',
    lines: [
      {
        description: 'Audit of the books',
        quantity: '1',
        unit_price_cents: 10_000,
        tax_rate: '20',
      },
    ],
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const invoice = await api('POST', `/invoices/${draft.body.id}/issue`, {});
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
  const paymentDraft = await api('POST', '/payments', {
    direction: 'incoming',
    amount_cents: 20_000,
    currency: 'EUR',
    method: 'bank_transfer',
    paid_on: today,
    customer_id: customer.id,
  });
  expect(paymentDraft.status, JSON.stringify(paymentDraft.body)).toBe(201);
  const payment = await api('POST', `/payments/${paymentDraft.body.id}/post`, {});
  expect(payment.status, JSON.stringify(payment.body)).toBe(200);
  return { customer, invoice: invoice.body, payment: payment.body };
}

for (const mode of ['mouse', 'keyboard'] as const) {
  describe(`the books in the console, by ${mode}`, () => {
    let page: Page;
    let act: Actor;
    let errors: string[];
    let docs: Awaited<ReturnType<typeof invoiceAndPayment>>;
    const url = (pathname: string) => platform.portalUrl + pathname;
    const heading = () => page.getByRole('heading', { level: 1 });
    const look = async (name: string) => {
      await quiet();
      await expectAccessible(page, `${name} (${mode})`);
      if (mode === 'mouse') await screenshots(page, `books-${name}`);
    };
    const inFlight = new Set<Request>();
    const quiet = () =>
      eventually(
        'the page to stop fetching',
        async () => {
          if (inFlight.size) return false;
          await new Promise((resolve) => setTimeout(resolve, 300));
          return inFlight.size === 0;
        },
        10_000,
      );

    beforeAll(async () => {
      docs = await invoiceAndPayment(mode);
      page = await openPage(browser);
      errors = watchBrowserErrors(page);
      page.on('request', (request) => inFlight.add(request));
      page.on('response', (response) => inFlight.delete(response.request()));
      page.on('requestfailed', (request) => inFlight.delete(request));
      act = mode === 'mouse' ? mouse(page) : keyboard(page);
    });

    afterAll(async () => {
      await page?.context().close();
    });

    it('logs in', async () => {
      await page.goto(url('/login'));
      await act.fill('E-mail', 'admin@demo.test');
      await act.fill('Password', platform.secrets.adminPassword);
      await act.press('button', 'Log in');
      await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    });

    it('shows an issued invoice’s postings and settlement', async () => {
      const number = String(docs.invoice.number);
      await page.goto(url(`/records/invoices/${String(docs.invoice.id)}`));
      await expect.poll(() => heading().textContent()).toBe(`Invoice ${number}`);
      const postings = page.getByRole('region', { name: 'Postings' });
      const entry = postings.getByRole('article');
      await expect.poll(() => entry.count()).toBe(1);
      expect(await entry.getByRole('heading').textContent()).toMatch(/^JE-\S+ posted$/);
      // Receivable debited with the total; revenue and VAT credited; the account's code and name.
      const lines = entry.locator('tbody tr');
      await expect
        .poll(() => lines.allTextContents())
        .toEqual([
          expect.stringMatching(/^411\d* .+120\.00$/),
          expect.stringMatching(/^707\d* .+100\.00$/),
          expect.stringMatching(/^44571\d* .+20\.00$/),
        ]);
      expect(await entry.locator('tfoot').textContent()).toBe('Total (EUR)120.00120.00');
      // The entry links to its own page.
      const entryLink = entry.getByRole('link').first();
      expect(await entryLink.getAttribute('href')).toMatch(/^\/records\/journal-entries\//);
      const settlement = page.getByRole('region', { name: 'Settlement' });
      expect(await settlement.locator('dl').textContent()).toBe(
        'Total120.00 EURAmount due120.00 EUR',
      );
      expect(await settlement.getByText('None yet.').count()).toBe(1);
      await look('invoice');

      // The entry's own page: its lines, and no entry reversing it.
      const entryNumber = (await entryLink.textContent()) ?? '';
      await act.press('link', entryNumber);
      await expect.poll(() => heading().textContent()).toBe(`Journal entry ${entryNumber}`);
      const reversal = page.getByRole('region', { name: 'Reversal' });
      await expect.poll(() => reversal.textContent()).toBe('ReversalNot reversed.');
      await look('journal-entry');
      await page.goto(url(`/records/invoices/${String(docs.invoice.id)}`));
      await expect.poll(() => heading().textContent()).toBe(`Invoice ${number}`);
    });

    it('allocates the payment from the invoice: the portal’s refusal first, then settled in part', async () => {
      const settlement = page.getByRole('region', { name: 'Settlement' });
      const paymentNumber = String(docs.payment.number);
      await act.select('Payment or credit note', String(docs.payment.id));
      // The amount starts at what both sides allow: the 120.00 due.
      expect(await page.getByLabel('Amount', { exact: true }).inputValue()).toBe('120.00');
      await act.fill('Amount', '150.00');
      await act.press('button', 'Allocate');
      // The refusal in the document's currency, at the amount, which has the focus.
      await expect
        .poll(() => settlement.getByRole('alert').textContent())
        .toBe('More than what is left: 120.00 EUR.montant_depasse');
      const amount = page.getByLabel('Amount', { exact: true });
      expect(await amount.getAttribute('aria-invalid')).toBe('true');
      expect(await amount.evaluate((input) => input === document.activeElement)).toBe(true);
      await look('invoice-allocation-refused');

      await act.fill('Amount', '50');
      await act.press('button', 'Allocate');
      await expect
        .poll(() => settlement.getByRole('status').textContent())
        .toBe(`Allocated 50.00 EUR of ${paymentNumber} to this invoice.`);
      await expect
        .poll(() => settlement.locator('dl').textContent())
        .toBe('Total120.00 EURAmount due70.00 EUR');
      await expect.poll(() => page.locator('dd .badge').textContent()).toBe('partiellement_paye');
      const row = settlement.getByRole('row', { name: new RegExp(paymentNumber) });
      await expect.poll(() => row.textContent()).toContain('50.00 EUR');

      // Deleted: everything is due again; then allocated anew for the reports.
      await act.press(
        'button',
        new RegExp(`^Delete the allocation of 50\\.00 EUR \\(${paymentNumber}\\)`),
      );
      await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
      await act.press('button', 'Delete allocation');
      await expect
        .poll(() => settlement.locator('dl').textContent())
        .toBe('Total120.00 EURAmount due120.00 EUR');
      await expect.poll(() => page.locator('dd .badge').textContent()).toBe('emis');
      await act.select('Payment or credit note', String(docs.payment.id));
      await act.fill('Amount', '50.00');
      await act.press('button', 'Allocate');
      await expect
        .poll(() => settlement.locator('dl').textContent())
        .toBe('Total120.00 EURAmount due70.00 EUR');
      await look('invoice-allocated');

      // The payment's page: what it has applied and what is left, the invoice it settles.
      await act.press('link', paymentNumber);
      await expect.poll(() => heading().textContent()).toBe(`Payment ${paymentNumber}`);
      const paid = page.getByRole('region', { name: 'Settlement' });
      await expect
        .poll(() => paid.locator('dl').textContent())
        .toBe('Amount200.00 EURAllocated50.00 EURLeft to allocate150.00 EUR');
      await expect
        .poll(() =>
          paid.getByRole('row', { name: new RegExp(String(docs.invoice.number)) }).count(),
        )
        .toBe(1);
      const postings = page.getByRole('region', { name: 'Postings' });
      await expect
        .poll(() => postings.locator('tbody tr').allTextContents())
        .toEqual([
          expect.stringMatching(/^512\d* .+200\.00$/),
          expect.stringMatching(/^411\d* .+200\.00$/),
        ]);
      await look('payment');
    });

    it('settles the invoice with a credit note from the invoice’s page', async () => {
      // A credit note of 25.00 + 20 % VAT on the invoice, issued through the API.
      const draft = await api('POST', '/credit-notes', {
        invoice_id: docs.invoice.id,
        customer_id: docs.customer.id,
        credit_note_date: today,
        reason: 'commercial_gesture',
        currency: 'EUR',
        lines: [
          { description: 'Goodwill', quantity: '1', unit_price_cents: 2_500, tax_rate: '20' },
        ],
      });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      const issued = await api('POST', `/credit-notes/${String(draft.body.id)}/issue`, {});
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      const note = issued.body;
      const noteNumber = String(note.number);

      await page.goto(url(`/records/invoices/${String(docs.invoice.id)}`));
      await expect
        .poll(() => heading().textContent())
        .toBe(`Invoice ${String(docs.invoice.number)}`);
      const settlement = page.getByRole('region', { name: 'Settlement' });
      await expect
        .poll(() => settlement.locator('dl').textContent())
        .toBe('Total120.00 EURAmount due70.00 EUR');
      // The payment's money and the note's credit, each under its kind; no refund, no draft.
      const choice = page.getByLabel('Payment or credit note', { exact: true });
      await expect
        .poll(() =>
          choice.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label'))),
        )
        .toEqual(['Payments', 'Credit notes']);
      expect(
        await choice.locator('optgroup[label="Credit notes"] option').allTextContents(),
      ).toEqual([`${noteNumber} · 30.00 EUR left`]);
      await act.select('Payment or credit note', String(note.id));
      // What the note has left, under what is due; no write-off without money.
      expect(await page.getByLabel('Amount', { exact: true }).inputValue()).toBe('30.00');
      expect(await page.getByLabel('Write-off').count()).toBe(0);
      await act.press('button', 'Allocate');
      await expect
        .poll(() => settlement.getByRole('status').textContent())
        .toBe(`Allocated 30.00 EUR of ${noteNumber} to this invoice.`);
      await expect
        .poll(() => settlement.locator('dl').textContent())
        .toBe('Total120.00 EURAmount due40.00 EUR');
      const row = settlement.getByRole('row', { name: new RegExp(noteNumber) });
      await expect.poll(() => row.textContent()).toContain('30.00 EUR');
      expect(await row.getByRole('link', { name: noteNumber }).getAttribute('href')).toBe(
        `/records/credit-notes/${String(note.id)}`,
      );
      // The note is used up: no longer offered.
      await expect.poll(() => choice.locator('option').count()).toBe(1);
      expect(await choice.locator('option').getAttribute('value')).toBe(String(docs.payment.id));
      const after = await api('GET', `/credit-notes/${String(note.id)}`);
      expect(after.body).toMatchObject({ amount_due_cents: 0, status: 'impute' });
      await look('invoice-credit-note');
    });

    it('shows a credit note’s postings, found by their source type, and its settlement', async () => {
      const notes = await api('GET', '/credit-notes?status=neq.brouillon&page_size=1');
      const note = (notes.body.data as Row[])[0]!;
      await page.goto(url(`/records/credit-notes/${String(note.id)}`));
      await expect.poll(() => heading().textContent()).toBe(`Credit note ${String(note.number)}`);
      const entries = page.getByRole('region', { name: 'Postings' }).getByRole('article');
      await expect.poll(() => entries.count()).toBeGreaterThan(0);
      for (const title of await entries.getByRole('heading').allTextContents())
        expect(title).toMatch(/^JE-\S+ (posted|reversed)$/);
      // The mirror of an invoice: the receivable credited with the note's total.
      const receivable = entries.first().locator('tbody tr').filter({ hasText: /^411/ });
      expect(await receivable.locator('td').nth(2).textContent()).toMatch(/^[\d,]+\.\d{2}$/);
      expect(
        await page.getByRole('region', { name: 'Settlement' }).locator('dt').allTextContents(),
      ).toEqual(['Total', 'Amount due']);
      await look('credit-note');
    });

    it('shows the trial balance balanced, and from it the general ledger of 411, a page at a time', async () => {
      await act.press('link', 'Reports');
      await expect.poll(() => heading().textContent()).toBe('Reports');
      await look('reports');
      await act.press('link', 'Trial balance');
      await expect.poll(() => heading().textContent()).toBe('Trial balance');
      const summary = page.getByRole('status').filter({ hasText: 'in EUR' });
      await expect.poll(() => summary.textContent()).toContain('balanced, debits equal credits');
      const total = page.locator('tfoot tr');
      const [, , debit, credit] = await total.locator('th, td').allTextContents();
      expect(debit).toBe(credit);
      await look('trial-balance');

      // The receivable account of the settings (411 in the French chart the demo is seeded on).
      const settings = await api('GET', '/settings/accounting');
      const receivableId = (settings.body.accounts as Record<string, string>).receivable;
      const receivable = (await api('GET', `/accounts/${receivableId}`)).body;
      expect(String(receivable.code)).toMatch(/^411/);
      await act.press(
        'link',
        `General ledger of ${String(receivable.code)} ${String(receivable.name)}`,
      );
      await expect
        .poll(() => heading().textContent())
        .toBe(`General ledger ${String(receivable.code)}`);
      const rows = page.locator('tbody tr');
      await expect.poll(() => rows.first().textContent()).toMatch(/^Opening balance on/);
      await look('general-ledger');
      // Ten lines a page: the API's keyset cursor, a page after the other.
      await page.goto(url(`/reports/general-ledger?account_id=${receivableId}&page_size=10`));
      await expect.poll(() => rows.count()).toBe(11);
      // The entry number: the document's number may arrive after the row.
      const entryOf = (row: ReturnType<typeof rows.nth>) => row.locator('td').nth(1).textContent();
      const firstLine = await entryOf(rows.nth(1));
      await act.press('button', 'Next page');
      await expect.poll(() => page.getByRole('button', { name: 'First page' }).count()).toBe(1);
      await expect.poll(() => rows.first().textContent()).not.toMatch(/^Opening balance/);
      expect(await rows.count()).toBe(10);
      expect(await entryOf(rows.first())).not.toBe(firstLine);
      await act.press('button', 'First page');
      await expect.poll(() => rows.first().textContent()).toMatch(/^Opening balance/);
      expect(await entryOf(rows.nth(1))).toBe(firstLine);

      // Today only: the invoice's receivable line and the payment's, with the running balance.
      await page.goto(
        url(`/reports/general-ledger?account_id=${receivableId}&from=${today}&to=${today}`),
      );
      const invoiceLine = page.getByRole('row', { name: /Invoice .*120\.00/ });
      await expect.poll(() => invoiceLine.count()).toBeGreaterThan(0);
      const lastBalance = await rows.last().locator('td').last().textContent();
      const opening = await rows.first().locator('td').last().textContent();
      expect(lastBalance).toMatch(/^-?[\d,]+\.\d{2}$/);
      expect(opening).toMatch(/^-?[\d,]+\.\d{2}$/);
    });

    it('shows aged receivables with the customer’s balance', async () => {
      await page.goto(url('/reports'));
      await expect.poll(() => heading().textContent()).toBe('Reports');
      await act.press('link', 'Aged receivables');
      await expect.poll(() => heading().textContent()).toBe('Aged receivables');
      const name = String(docs.customer.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const customer = page.getByRole('row', { name: new RegExp(`^${name}`) });
      await expect.poll(() => customer.count()).toBe(1);
      expect(await page.locator('tfoot tr th').textContent()).toBe('Total');
      await look('aged-receivables');
      await page.goto(url('/reports/aged-payables'));
      await expect.poll(() => heading().textContent()).toBe('Aged payables');
      await look('aged-payables');
    });

    it('downloads the FEC of this year through the session: 18 tab-separated columns', async () => {
      await page.goto(url('/reports'));
      await expect.poll(() => heading().textContent()).toBe('Reports');
      await act.press('link', 'FEC export');
      await expect.poll(() => heading().textContent()).toBe('FEC export');
      const years = await api('GET', '/fiscal-years?page_size=200');
      const year = (years.body.data as Row[]).find(
        (y) => String(y.start_date) <= today && today <= String(y.end_date),
      )!;
      await act.select('Fiscal year', String(year.id));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        act.press('button', 'Download FEC'),
      ]);
      const text = await readFile((await download.path())!, 'utf8');
      const [header, ...lines] = text.split('\r\n').filter(Boolean);
      expect(header!.split('\t')).toEqual(FEC_COLUMNS);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.split('\t')).toHaveLength(18);
      expect(text).toContain(String(docs.invoice.number));
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe(
          `${download.suggestedFilename()}: ${lines.length} lines. Save ${download.suggestedFilename()} again`,
        );
      await look('fec');
    });

    it('shows Settings → Accounting with the currency and the default accounts, and saves them', async () => {
      await act.press('link', 'Accounting');
      await expect.poll(() => heading().textContent()).toBe('Accounting');
      const currency = page.getByLabel('Company currency');
      await expect.poll(() => currency.count()).toBe(1);
      expect(await currency.inputValue()).toBe('EUR');
      const receivable = page.getByLabel('Receivable', { exact: true });
      await expect
        .poll(() => receivable.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text))
        .toMatch(/^411/);
      expect(await page.locator('fieldset select').count()).toBe(12);
      await look('settings-accounting');
      await act.press('button', 'Save');
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toBe('Saved: new postings use these accounts.');
    });

    it('ends with no script error', async () => {
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    });
  });
}

describe('the books for members who are not admins', () => {
  it('an accountant reads Settings → Accounting without changing it; a sales reader has no reports', async () => {
    const accountant = await member('accountant@demo.test', 'Accountant', ['accounting:editor']);
    const seller = await member('seller@demo.test', 'Seller', ['sales:reader']);

    const page = await openPage(browser, `${platform.portalUrl}/login`);
    const errors = watchBrowserErrors(page);
    const act = mouse(page);
    const logIn = async (who: { email: string; password: string }) => {
      await act.fill('E-mail', who.email);
      await act.fill('Password', who.password);
      await act.press('button', 'Log in');
      // Back where the last session was, or home: then home.
      await expect.poll(() => page.getByRole('button', { name: 'Log out' }).count()).toBe(1);
      await page.goto(`${platform.portalUrl}/`);
      await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    };
    await logIn(accountant);
    expect(await page.getByRole('link', { name: 'Reports', exact: true }).count()).toBe(1);
    await act.press('link', 'Accounting');
    await expect.poll(() => page.getByText('Only admins change these settings.').count()).toBe(1);
    const facts = page.locator('dl');
    await expect.poll(() => facts.textContent()).toMatch(/^Company currencyEURReceivable411/);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    await expectAccessible(page, 'settings → accounting, read only');
    await screenshots(page, 'books-settings-accounting-read-only');
    await act.press('button', 'Log out');

    await logIn(seller);
    expect(await page.getByRole('link', { name: 'Reports', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Accounting', exact: true }).count()).toBe(0);
    // An address typed anyway: the portal's refusal, in words.
    await page.goto(`${platform.portalUrl}/reports/trial-balance`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('acces_refuse');
    await expectAccessible(page, 'trial balance, refused');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await page.context().close();
  });
});

/** A member of `demo` with these roles, invited by the admin and joined with a password. */
async function member(email: string, name: string, roles: string[]) {
  const invited = await api('POST', '/settings/users', { email, name, roles });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const mail = await eventually(`the invitation to ${email}`, async () =>
    smtp.received.find((m) => m.to.includes(email)),
  );
  const password = `the passphrase of ${name}`;
  const accepted = await fetch(`${platform.portalUrl}/api/v1/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: linkIn(mail).token, password }),
  });
  expect(accepted.status).toBe(200);
  return { email, password };
}

/** The demo admin's API session: `(method, path under /api/v1, body)`. */
async function apiSession(platform: Platform): Promise<Call> {
  const base = `${platform.portalUrl}/api/v1`;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return async (method, pathname, body) => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${access_token}`,
        'x-tenant': 'demo',
        'content-type': 'application/json',
        ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Row };
  };
}
