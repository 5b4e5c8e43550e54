/**
 * The API reference (SPEC §15, `GET /api/v1/docs`) in Debian's Chromium against the real
 * portal: Scalar renders the served openapi.json (1,300 operations, 9 MB) within a bound, a
 * link to an operation and one to a webhook open them, no request leaves the portal's origin, the
 * CSP refuses an inline script and reports nothing else; screenshots at 1280 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Platform, startPlatform } from '../test/platform';
import {
  launchBrowser,
  openPage,
  SCREENSHOT_DIR,
  tryInlineScript,
  watchBrowserErrors,
} from './harness';

/**
 * How long the first render may take. Scalar processes the whole document in the page (about
 * 10–20 s alone on these 2 cores, 40–70 s while other test files run): a bound
 * that catches a renderer stuck or gone quadratic, not a benchmark. The figure is printed.
 */
const RENDER_BOUND_MS = 120_000;

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
    path: path.join(SCREENSHOT_DIR, `${name}-1280.png`),
    animations: 'disabled',
  });
}

/** Waits for the element to be shown (the page stays busy for a while after its first render). */
async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 60_000 });
  expect(await locator.isVisible()).toBe(true);
}

it('renders the served document from our own origin, an operation and a webhook included', async () => {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  const elsewhere: string[] = [];
  const origin = new URL(platform.portalUrl).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== origin) elsewhere.push(request.url());
  });

  // A link to a known operation, as the console and integrators share them.
  const started = performance.now();
  const response = await page.goto(
    `${platform.portalUrl}/api/v1/docs#tag/sales/POST/api/v1/sales-orders`,
  );
  expect(response?.status()).toBe(200);
  // Until Scalar is done, the page says it is loading.
  expect(await response?.text()).toContain('Loading the API reference');
  const operation = page.getByRole('heading', { name: 'Create a sales order' });
  await operation.waitFor({ state: 'visible', timeout: RENDER_BOUND_MS });
  const renderMs = Math.round(performance.now() - started);
  console.log(`api reference: first render ${renderMs} ms`);
  expect(await operation.isVisible()).toBe(true);
  // Its method and path, and the sidebar of every tag beside it.
  await visible(page.getByText(/Needs sales:write\. Records sales_order\.created/).first());
  await visible(page.getByRole('navigation').getByText('Settings: webhooks', { exact: true }));
  // The loading notice goes once Scalar reports the document rendered.
  await expect.poll(() => page.locator('#loading').count(), { timeout: 60_000 }).toBe(0);
  await screenshot(page, 'api-reference-operation');

  // The webhooks section: an event type with its signed headers.
  await page.evaluate(() => {
    window.location.hash = '#tag/webhooks/webhook/POST/sales_ordercreated';
  });
  await visible(page.getByRole('heading', { name: 'A sales order was created.' }));
  await visible(page.getByText('X-Service-Signature', { exact: true }).first());
  await screenshot(page, 'api-reference-webhook');

  // Scripts come only from the portal: an inline one is refused by the CSP.
  expect(await tryInlineScript(page)).toEqual({ violatedDirective: 'script-src-elem', ran: false });
  expect(elsewhere).toEqual([]);
  // The refused inline script is the one error expected; nothing else (no CSP report, no 404).
  expect(errors.filter((e) => !e.includes('Executing inline script violates'))).toEqual([]);
}, 300_000);
