/**
 * Goods and document flow in the console (SPEC §18, §14) in Debian's Chromium against the real
 * portal. Through the API: a warehouse with its internal location, a stockable product, 10 of
 * it received (a purchase order → its goods receipt → validated), a sales order of 5 confirmed,
 * 2 delivered (a partial delivery, shipped) and invoiced (issued). In the console: the order's
 * lines with what was delivered and invoiced, its deliveries and invoice (made into), a
 * delivery made from it; the quantities dialog by keyboard alone (Escape, a quantity over what
 * remains refused in the dialog, then the portal's own `quantite_depassee` after someone else
 * shipped some meanwhile, then a part taken: the new draft's page); the purchase order's
 * receipt; the invoice made from the order, its credit note's dialog; the product's stock levels
 * and ledger; Inventory → Stock levels filtered by
 * warehouse. axe-core on every screen and with the dialog open; screenshots at 1280 and 375 px.
 * The console must be built first (`pnpm --filter @erp/console build`); run alone:
 * `cd e2e && pnpm vitest run -c browser/vitest.config.ts browser/goods.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from '../test/platform';
import { keyboard, mouse } from './console-actors';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshots,
  watchBrowserErrors,
} from './harness';

const CONSOLE_DIST = path.resolve(import.meta.dirname, '../../apps/console/dist/index.html');

type Row = Record<string, unknown>;
type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Row }>;

let platform: Platform;
let browser: Browser;
let api: Call;
const today = new Date().toISOString().slice(0, 10);
const suffix = randomUUID().slice(0, 6);

beforeAll(async () => {
  if (!existsSync(CONSOLE_DIST))
    throw new Error('apps/console/dist is missing: run `pnpm --filter @erp/console build` first');
  [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
  api = await apiSession(platform);
});

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** `method path` answering `status`, its body. */
async function ok(method: string, pathname: string, body?: unknown, status = 200): Promise<Row> {
  const answer = await api(method, pathname, body);
  expect(answer.status, `${method} ${pathname}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

/** The flows of SPEC §18 through the API, as the console will find them. */
async function goodsFlow() {
  const warehouse = await ok(
    'POST',
    '/warehouses',
    { code: `WH-${suffix}`, name: `Entrepôt ${suffix}`, active: true },
    201,
  );
  const location = await ok(
    'POST',
    '/stock-locations',
    {
      code: `WH-${suffix}/STOCK`,
      name: `Stock ${suffix}`,
      warehouse_id: warehouse.id,
      usage: 'internal',
      is_scrap: false,
    },
    201,
  );
  const product = await ok(
    'POST',
    '/products',
    {
      sku: `CHAIR-${suffix}`,
      name: `Office chair ${suffix}`,
      product_type: 'stockable',
      category: 'goods',
      unit_of_measure: 'Unit',
      active: true,
      valuation_method: 'fifo',
      cost_price_cents: 4_000,
    },
    201,
  );
  const supplier = await ok('POST', '/suppliers', { name: `Sièges ${suffix}` }, 201);
  const customer = await ok(
    'POST',
    '/customers',
    { name: `Bureau ${suffix}`, customer_type: 'company', active: true },
    201,
  );
  const line = (quantity: string, price: number) => ({
    product_id: product.id,
    description: String(product.name),
    quantity,
    unit_price_cents: price,
    tax_rate: '20',
  });

  // 10 received at 40.00.
  const purchase = await ok(
    'POST',
    '/purchase-orders',
    {
      supplier_id: supplier.id,
      order_date: today,
      currency: 'EUR',
      warehouse_id: warehouse.id,
      lines: [line('10', 4_000)],
    },
    201,
  );
  for (const step of ['submit', 'approve', 'send'])
    await ok('POST', `/purchase-orders/${String(purchase.id)}/${step}`, {});
  const receipt = await ok(
    'POST',
    `/purchase-orders/${String(purchase.id)}/make-goods-receipt`,
    undefined,
    201,
  );
  await ok('POST', `/goods-receipts/${String(receipt.id)}/validate`, {});

  // 5 ordered at 100.00; 2 delivered and invoiced.
  const draft = await ok(
    'POST',
    '/sales-orders',
    {
      customer_id: customer.id,
      order_date: today,
      currency: 'EUR',
      warehouse_id: warehouse.id,
      lines: [line('5', 10_000)],
    },
    201,
  );
  const order = await ok('POST', `/sales-orders/${String(draft.id)}/confirm`, {});
  const lineId = String((order.lines as Row[])[0]!.id);
  const delivery = await ok(
    'POST',
    `/sales-orders/${String(order.id)}/make-delivery`,
    { lines: [{ line_id: lineId, quantity: '2' }] },
    201,
  );
  await ok('POST', `/deliveries/${String(delivery.id)}/ship`, {});
  const invoice = await ok(
    'POST',
    `/sales-orders/${String(order.id)}/make-invoice`,
    { lines: [{ line_id: lineId, quantity: '2' }] },
    201,
  );
  await ok('POST', `/invoices/${String(invoice.id)}/issue`, {});
  return {
    warehouse,
    location,
    product,
    purchase: await ok('GET', `/purchase-orders/${String(purchase.id)}`),
    receipt: await ok('GET', `/goods-receipts/${String(receipt.id)}`),
    order: await ok('GET', `/sales-orders/${String(order.id)}`),
    lineId,
    delivery: await ok('GET', `/deliveries/${String(delivery.id)}`),
    invoice: await ok('GET', `/invoices/${String(invoice.id)}`),
  };
}

describe('goods and document flow in the console', () => {
  let page: Page;
  let errors: string[];
  let docs: Awaited<ReturnType<typeof goodsFlow>>;
  const url = (pathname: string) => platform.portalUrl + pathname;
  const heading = () => page.getByRole('heading', { level: 1 });
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
  const look = async (name: string, shoot = true) => {
    await quiet();
    await expectAccessible(page, name);
    if (shoot) await screenshots(page, `goods-${name}`);
  };
  const open = async (pathname: string, title: string) => {
    await page.goto(url(pathname));
    await expect.poll(() => heading().textContent()).toBe(title);
  };

  beforeAll(async () => {
    docs = await goodsFlow();
    page = await openPage(browser);
    errors = watchBrowserErrors(page);
    page.on('request', (request) => inFlight.add(request));
    page.on('response', (response) => inFlight.delete(response.request()));
    page.on('requestfailed', (request) => inFlight.delete(request));
  });

  afterAll(async () => {
    await page?.context().close();
  });

  it('logs in', async () => {
    await page.goto(url('/login'));
    const act = mouse(page);
    await act.fill('E-mail', 'admin@demo.test');
    await act.fill('Password', platform.secrets.adminPassword);
    await act.press('button', 'Log in');
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
  });

  it('shows an order’s lines with what was delivered and invoiced, and what it was made into', async () => {
    const number = String(docs.order.number);
    await open(`/records/sales-orders/${String(docs.order.id)}`, `Sales order ${number}`);
    const lines = page.getByRole('region', { name: 'Lines', exact: true });
    await expect
      .poll(() => lines.locator('thead th').allTextContents())
      .toEqual(expect.arrayContaining(['Quantity', 'Delivered', 'Invoiced']));
    const headers = await lines.locator('thead th').allTextContents();
    const cell = (name: string) => lines.locator('tbody td').nth(headers.indexOf(name));
    expect(await cell('Quantity').textContent()).toBe('5');
    expect(await cell('Delivered').textContent()).toBe('2');
    expect(await cell('Invoiced').textContent()).toBe('2');

    const made = page.getByRole('region', { name: 'Made into' });
    const rows = made.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const delivered = made.getByRole('row', { name: new RegExp(String(docs.delivery.number)) });
    expect(await delivered.textContent()).toMatch(/^Delivery.+expedie/);
    const invoiced = made.getByRole('row', { name: new RegExp(String(docs.invoice.number)) });
    expect(await invoiced.textContent()).toMatch(/^Invoice.+emis/);
    // The order offers what its state allows: the two conversions, not the quote's.
    expect(await page.getByRole('button', { name: 'Make delivery' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Make invoice' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Make sales order' }).count()).toBe(0);
    await look('sales-order');

    // The delivery names the order it was made from, and links back.
    await mouse(page).press('link', String(docs.delivery.number));
    await expect
      .poll(() => heading().textContent())
      .toBe(`Delivery ${String(docs.delivery.number)}`);
    const from = page.locator('.made-from');
    await expect.poll(() => from.textContent()).toBe(`Made from ${number}`);
    await look('delivery', false);
    await from.getByRole('link', { name: number }).click();
    await expect.poll(() => heading().textContent()).toBe(`Sales order ${number}`);
  });

  it('makes a delivery of a part with the quantities dialog, by keyboard alone', async () => {
    const act = keyboard(page);
    const number = String(docs.order.number);
    const dialog = page.getByRole('dialog', { name: `Make delivery from ${number}` });
    const take = dialog.getByRole('textbox', { name: /^Quantity to take of line 1\./ });
    await quiet();

    // Opened, then closed with Escape: the focus is back on the button.
    await act.press('button', 'Make delivery');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => take.inputValue()).toBe('3');
    expect(await take.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await dialog.locator('td[data-label="Quantity"]').textContent()).toBe('5');
    expect(await dialog.locator('td[data-label="Remaining"]').textContent()).toBe('3');
    await look('delivery-dialog', false);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(
      await page
        .getByRole('button', { name: 'Make delivery' })
        .evaluate((button) => button === document.activeElement),
    ).toBe(true);

    // Nothing behind the modal dialog takes the focus: Tab goes through its controls (and the
    // browser's own, past the last one) only.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const behind = await page.evaluate(() => {
        const focused = document.activeElement;
        return !!focused && focused !== document.body && !focused.closest('dialog[open]');
      });
      expect(behind, `Tab ${i + 1} left the dialog`).toBe(false);
    }

    // More than remains: refused in the dialog, on the line, which keeps the focus.
    await act.fill(/^Quantity to take of line 1\./, '4');
    await page.keyboard.press('Enter');
    await expect.poll(() => take.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.locator('.field-error').textContent()).toBe('More than remains (3).');
    expect(await take.evaluate((input) => input === document.activeElement)).toBe(true);

    // Someone ships 1 meanwhile: the portal's refusal, with its figures, on the line.
    const other = await ok(
      'POST',
      `/sales-orders/${String(docs.order.id)}/make-delivery`,
      { lines: [{ line_id: docs.lineId, quantity: '1' }] },
      201,
    );
    await ok('POST', `/deliveries/${String(other.id)}/ship`, {});
    await act.fill(/^Quantity to take of line 1\./, '2.5');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe(
        `More than remains of line "${String(docs.product.name)}": 2 left, 2.5 asked.quantite_depassee`,
      );
    expect(await dialog.locator('.field-error').textContent()).toBe(
      'More than remains: 2 left, 2.5 asked.',
    );
    // What remains is now the portal's figure.
    expect(await dialog.locator('td[data-label="Remaining"]').textContent()).toBe('2');
    await look('delivery-dialog-refused');

    // A part taken: the new draft's page, made from the order.
    await act.fill(/^Quantity to take of line 1\./, '1.5');
    await act.press('button', 'Make the delivery');
    await expect.poll(() => heading().textContent()).toMatch(/^Delivery \S+$/);
    const title = (await heading().textContent()) ?? '';
    expect(title).not.toBe(`Delivery ${String(docs.delivery.number)}`);
    expect(await page.locator('dd .badge').first().textContent()).toBe('brouillon');
    await expect.poll(() => page.locator('.made-from').textContent()).toBe(`Made from ${number}`);
    const lines = page.getByRole('region', { name: 'Lines', exact: true });
    const headers = await lines.locator('thead th').allTextContents();
    expect(await lines.locator('tbody td').nth(headers.indexOf('Quantity')).textContent()).toBe(
      '1.5',
    );
    await look('new-delivery', false);

    // The order lists it among its deliveries (a draft counts nothing yet).
    await page.locator('.made-from').getByRole('link', { name: number }).click();
    await expect.poll(() => heading().textContent()).toBe(`Sales order ${number}`);
    const made = page.getByRole('region', { name: 'Made into' });
    await expect.poll(() => made.locator('tbody tr').count()).toBe(4);
    expect(await made.getByRole('row', { name: /brouillon/ }).count()).toBe(1);
  });

  it('shows a purchase order’s receipt and what was received', async () => {
    const number = String(docs.purchase.number);
    await open(`/records/purchase-orders/${String(docs.purchase.id)}`, `Purchase order ${number}`);
    const lines = page.getByRole('region', { name: 'Lines', exact: true });
    await expect
      .poll(() => lines.locator('thead th').allTextContents())
      .toEqual(expect.arrayContaining(['Received', 'Billed']));
    const headers = await lines.locator('thead th').allTextContents();
    expect(await lines.locator('tbody td').nth(headers.indexOf('Received')).textContent()).toBe(
      '10',
    );
    const made = page.getByRole('region', { name: 'Made into' });
    await expect
      .poll(() => made.getByRole('row', { name: new RegExp(String(docs.receipt.number)) }).count())
      .toBe(1);
    // Fully received, still to bill: only the supplier invoice's conversion remains useful,
    // but both are open in its state.
    expect(await page.getByRole('button', { name: 'Make supplier invoice' }).count()).toBe(1);
    await look('purchase-order', false);
  });

  it('shows an invoice made from the order, which may be credited', async () => {
    const number = String(docs.invoice.number);
    await open(`/records/invoices/${String(docs.invoice.id)}`, `Invoice ${number}`);
    await expect
      .poll(() => page.locator('.made-from').textContent())
      .toBe(`Made from ${String(docs.order.number)}`);
    const lines = page.getByRole('region', { name: 'Lines', exact: true });
    await expect
      .poll(() => lines.locator('tbody td[data-label="Credited"]').textContent())
      .toBe('0');
    await expect
      .poll(() => page.getByRole('region', { name: 'Made into' }).textContent())
      .toBe('Made intoNo credit notes yet.');
    // The credit note's dialog offers what was invoiced; cancelled, nothing is made.
    await mouse(page).press('button', 'Make credit note');
    const dialog = page.getByRole('dialog', { name: `Make credit note from ${number}` });
    await expect.poll(() => dialog.locator('td[data-label="Remaining"]').textContent()).toBe('2');
    await expectAccessible(page, 'credit note dialog');
    await mouse(page).press('button', 'Cancel');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await look('invoice', false);
  });

  it('shows a product’s stock levels and its ledger, newest first, linking to the documents', async () => {
    await open(
      `/records/products/${String(docs.product.id)}`,
      `Product ${String(docs.product.name)}`,
    );
    const stock = page.getByRole('region', { name: 'Stock' });
    const levels = stock.getByRole('table', { name: 'Stock levels' });
    await expect.poll(() => levels.locator('tbody tr').count()).toBe(1);
    // 10 in, 2 and 1 out at 40.00 (FIFO); 2 still reserved of the 5 ordered.
    await expect
      .poll(() => levels.locator('tbody tr').textContent())
      .toBe(`Entrepôt ${suffix}Stock ${suffix}725280.00`);
    const ledger = stock.getByRole('table', { name: 'Stock ledger' });
    const entries = ledger.locator('tbody tr');
    await expect.poll(() => entries.count()).toBe(3);
    const quantities = await ledger.locator('tbody td[data-label="Quantity"]').allTextContents();
    expect(quantities).toEqual(['-1', '-2', '10']);
    expect(await ledger.locator('tbody td[data-label="On hand after"]').allTextContents()).toEqual([
      '7',
      '8',
      '10',
    ]);
    const source = ledger.getByRole('link', { name: String(docs.receipt.number) });
    expect(await source.getAttribute('href')).toBe(
      `/records/goods-receipts/${String(docs.receipt.id)}`,
    );
    await look('product');
  });

  it('lists the stock levels, filtered by warehouse', async () => {
    await page.goto(url('/'));
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('heading', { name: 'Inventory' }).count()).toBe(1);
    await nav.getByRole('link', { name: 'Stock levels' }).click();
    await expect.poll(() => heading().textContent()).toBe('Stock levels');
    await quiet();
    await mouse(page).select('Warehouse', String(docs.warehouse.id));
    const rows = page.getByRole('table', { name: 'Stock levels' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await expect
      .poll(() => rows.textContent())
      .toBe(`Office chair ${suffix}Entrepôt ${suffix}Stock ${suffix}725280.00`);
    await look('stock-levels');
    // The answers the console expects (the session check before logging in: 401; the portal's
    // refusal shown in the dialog: 422) are the browser's only complaints.
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
  });
});

/** Bearer calls to the portal as the demo tenant's admin. */
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
