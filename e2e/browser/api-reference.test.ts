/**
 * The API reference (SPEC §15, `GET /api/v1/docs`) in Debian's Chromium against the real
 * portal: it opens on the index of the document's parts (ours: axe-core, by keyboard), a part
 * opens in Scalar from its link, a link to an operation lands on it (the links of before the
 * split too), a webhook opens in the platform's part, no request leaves the portal's origin,
 * the CSP refuses an inline script and reports nothing else; screenshots at 1280 and 375 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Platform, startPlatform } from '../test/platform';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  SCREENSHOT_DIR,
  screenshots,
  tabTo,
  tryInlineScript,
  watchBrowserErrors,
} from './harness';

/**
 * How long a part's first render may take. Scalar processes one part in the page (about 1–2 s
 * alone on these 2 cores, several times that while other packages' tests run): a bound that
 * catches a renderer stuck or gone quadratic, not a benchmark (`pnpm bench docs` is). The
 * figure is printed.
 */
const RENDER_BOUND_MS = 60_000;

let platform: Platform;
let browser: Browser;
beforeAll(async () => {
  [platform, browser] = await Promise.all([startPlatform(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** The viewport as a person sees it (the rendered reference is far too long for a full page). */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}-${page.viewportSize()?.width ?? 1280}.png`),
    animations: 'disabled',
  });
}

/** Waits for the element to be shown (the page stays busy for a while after its first render). */
async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 60_000 });
  expect(await locator.isVisible()).toBe(true);
}

/** Every request the page makes to another origin than the portal's. */
function requestsElsewhere(page: Page): string[] {
  const elsewhere: string[] = [];
  const origin = new URL(platform.portalUrl).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== origin) elsewhere.push(request.url());
  });
  return elsewhere;
}

it('opens on the index of the parts, accessible and usable by keyboard, Scalar not loaded', async () => {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  const elsewhere = requestsElsewhere(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const started = performance.now();
  await page.goto(`${platform.portalUrl}/api/v1/docs`);
  await visible(page.getByRole('heading', { level: 1, name: 'ERP business API reference' }));
  console.log(`api reference: index shown in ${Math.round(performance.now() - started)} ms`);
  expect(scripts).toEqual([expect.stringMatching(/^\/api\/v1\/docs\/reference\./)]);
  expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
    'Platform',
    'Sales',
    'Purchasing',
    'Inventory',
    'Accounting',
    'CRM',
    'HR',
    'Production',
    'Projects',
    'Assets',
    'Support',
  ]);
  // A module's operations, one disclosure away, each a link.
  await page.getByText('Every operation of Sales', { exact: true }).click();
  await visible(page.getByRole('link', { name: 'POST /api/v1/sales-orders', exact: true }));
  await expectAccessible(page, 'the API reference index');
  await screenshots(page, 'api-reference-index');

  // By keyboard alone: Tab to a part, Enter opens it in Scalar.
  await page.goto(`${platform.portalUrl}/api/v1/docs`);
  await tabTo(page, 'link', 'Accounting');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/api\/v1\/docs\?module=accounting$/);
  // A tag per resource: the first (Accounting periods) opens with its operations, the Reports
  // tag is in the sidebar.
  await visible(
    page.locator('#reference').getByText('/api/v1/accounting-periods', { exact: true }).first(),
  );
  await visible(
    page
      .getByRole('complementary', { name: /^Sidebar for / })
      .getByText('Reports', { exact: true }),
  );
  await expect.poll(() => page.locator('#loading').count(), { timeout: RENDER_BOUND_MS }).toBe(0);
  const bar = page.getByRole('navigation', { name: 'Parts of the API' });
  expect(await bar.getByRole('link', { name: 'Accounting' }).getAttribute('aria-current')).toBe(
    'page',
  );
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

it('lands on an operation by its link, the links of before the split included', async () => {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  const elsewhere = requestsElsewhere(page);
  const started = performance.now();
  // A link of before the tags per resource (the module's tag): its anchor under its tag of now.
  await page.goto(
    `${platform.portalUrl}/api/v1/docs?module=purchasing#tag/purchasing/POST/api/v1/purchase-orders`,
    { waitUntil: 'commit' },
  );
  await page.waitForURL(
    /\?module=purchasing#tag\/purchase-orders\/POST\/api\/v1\/purchase-orders$/,
    { waitUntil: 'commit' },
  );
  // While Scalar starts, the part's list lies over the page, the operation marked in it (gone
  // once Scalar has loaded: its presence is checked, its timing is the bench's).
  const listed = page.locator('#index .operations a[aria-current="location"]');
  await listed.waitFor({ state: 'attached', timeout: RENDER_BOUND_MS });
  expect(await listed.textContent()).toBe('POST /api/v1/purchase-orders');
  const created = page.getByRole('heading', { name: 'Create a purchase order' });
  await created.waitFor({ state: 'visible', timeout: RENDER_BOUND_MS });
  console.log(`api reference: operation by link in ${Math.round(performance.now() - started)} ms`);
  // Scrolled to: the heading is on screen, not somewhere below the part's first operations.
  await expect
    .poll(() =>
      created.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.top < window.innerHeight;
      }),
    )
    .toBe(true);
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});

it('by link, lists the operation marked over the page until Scalar has loaded', async () => {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  // Scalar's bundle held back: what the reader has before it, for as long as it takes.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/v1\/docs\/scalar\.[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${platform.portalUrl}/api/v1/docs#tag/sales/POST/api/v1/sales-orders`, {
    waitUntil: 'commit',
  });
  const listed = page.locator('#index .operations a[aria-current="location"]');
  await visible(listed);
  expect(await listed.textContent()).toBe('POST /api/v1/sales-orders');
  expect(await listed.getAttribute('href')).toBe(
    'docs?module=sales#tag/sales-orders/POST/api/v1/sales-orders',
  );
  expect(
    await listed.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }),
  ).toBe(true);
  await visible(page.getByRole('status').getByText('Loading the Sales reference…'));
  await expectAccessible(page, 'an operation by link, before Scalar');
  await screenshots(page, 'api-reference-by-link-listed');

  release();
  await expect.poll(() => page.locator('#loading').count(), { timeout: RENDER_BOUND_MS }).toBe(0);
  expect(await page.locator('#index').isHidden()).toBe(true);
  await visible(page.getByRole('heading', { name: 'Create a sales order' }));
  expect(errors).toEqual([]);
});

it('renders a part from our own origin, an operation and a webhook included', async () => {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  const elsewhere = requestsElsewhere(page);

  // A link to a known operation as shared before the split: its part is found from its tag.
  const started = performance.now();
  const response = await page.goto(
    `${platform.portalUrl}/api/v1/docs#tag/sales/POST/api/v1/sales-orders`,
  );
  expect(response?.status()).toBe(200);
  await page.waitForURL(
    /\/api\/v1\/docs\?module=sales#tag\/sales-orders\/POST\/api\/v1\/sales-orders$/,
  );
  const operation = page.getByRole('heading', { name: 'Create a sales order' });
  await operation.waitFor({ state: 'visible', timeout: RENDER_BOUND_MS });
  const renderMs = Math.round(performance.now() - started);
  console.log(`api reference: first render ${renderMs} ms`);
  expect(await operation.isVisible()).toBe(true);
  // The loading notice goes once Scalar reports the document rendered; the page answers
  // promptly only from then on.
  await expect.poll(() => page.locator('#loading').count(), { timeout: RENDER_BOUND_MS }).toBe(0);
  // What the operation needs and records, as its description says (the shown copy: hidden
  // ones wait in collapsed sections), and the sidebar of every tag beside it.
  await visible(
    page.getByText('sales_order.created', { exact: true }).filter({ visible: true }).first(),
  );
  // Nothing that sends the reader to Scalar's services (it offers "Generate MCP" on localhost).
  expect(await page.getByText('Generate MCP').count()).toBe(0);
  await screenshot(page, 'api-reference-operation');

  // The webhooks section is the platform's, from the bar between parts, then the sidebar.
  await page
    .getByRole('navigation', { name: 'Parts of the API' })
    .getByRole('link', { name: 'Platform' })
    .click();
  await page.waitForURL(/\?module=platform$/);
  const sidebar = page.getByRole('complementary', { name: /^Sidebar for / });
  await visible(sidebar.getByText('Settings: webhooks', { exact: true }));
  await sidebar.getByRole('button', { name: 'Open Group - Webhooks' }).click({ noWaitAfter: true });
  await sidebar
    .getByText('A sales order was created.', { exact: true })
    .click({ noWaitAfter: true, timeout: 60_000 });
  await visible(page.getByRole('heading', { name: 'A sales order was created.' }));
  await screenshot(page, 'api-reference-webhook');
  // Its answer as the receiver must give it (a webhook's own response description).
  await visible(
    page
      .getByText('Delivered. Answer within 15 s; the body is ignored.', { exact: true })
      .filter({ visible: true })
      .first(),
  );

  // On a phone: the same page reflows to the width, nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  const webhook = page.getByRole('heading', { name: 'A sales order was created.' });
  await visible(webhook);
  // The reflow moves the scroll position: back to the webhook, as the reader left it.
  await webhook.scrollIntoViewIfNeeded();
  // Scalar switches to its phone layout a moment after the resize.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(375);
  await screenshot(page, 'api-reference-webhook');

  // Scripts come only from the portal: an inline one is refused by the CSP.
  expect(await tryInlineScript(page)).toEqual({ violatedDirective: 'script-src-elem', ran: false });
  expect(elsewhere).toEqual([]);
  // The refused inline script is the one error expected; nothing else (no CSP report, no 404).
  expect(errors.filter((e) => !e.includes('Executing inline script violates'))).toEqual([]);
}, 360_000);
