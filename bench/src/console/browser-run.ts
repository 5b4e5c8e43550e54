import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One resource the browser downloaded, from the DevTools network log. */
export interface Download {
  url: string;
  type: string;
  /** Bytes on the wire: headers and body as sent (compressed if the server compressed). */
  transferBytes: number;
  /** The body once decoded. */
  bodyBytes: number;
  /** The body gzipped at level 9 here: what it costs served compressed. */
  gzipBytes: number;
  contentEncoding: string | undefined;
}

/** Milliseconds of one run, each from the start of its navigation or click. */
export interface Timings {
  loginReady: number;
  loginToHome: number;
  reloadToHome: number;
  salesOrdersLoad: number;
  salesOrdersClientSide: number;
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: process.getuid?.() !== 0,
    args: ['--disable-dev-shm-usage'],
  });
}

/**
 * Records every response of `page` through the DevTools protocol (Network domain): the
 * transfer size Chromium counted, the decoded body and its gzip size. `stop()` returns them.
 */
export async function recordDownloads(page: Page): Promise<() => Promise<Download[]>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const responses = new Map<string, { url: string; type: string; encoding?: string }>();
  const finished: Array<{ id: string; transferBytes: number }> = [];
  cdp.on('Network.responseReceived', (event) => {
    const headers = event.response.headers as Record<string, string>;
    const encoding = Object.entries(headers).find(
      ([k]) => k.toLowerCase() === 'content-encoding',
    )?.[1];
    responses.set(event.requestId, {
      url: event.response.url,
      type: event.type ?? 'Other',
      ...(encoding ? { encoding } : {}),
    });
  });
  cdp.on('Network.loadingFinished', (event) => {
    finished.push({ id: event.requestId, transferBytes: event.encodedDataLength });
  });
  return async () => {
    const downloads: Download[] = [];
    for (const { id, transferBytes } of finished) {
      const response = responses.get(id);
      if (!response) continue;
      const body = await cdp
        .send('Network.getResponseBody', { requestId: id })
        .catch(() => undefined);
      const bytes = body
        ? Buffer.from(body.body, body.base64Encoded ? 'base64' : 'utf8')
        : Buffer.alloc(0);
      downloads.push({
        url: response.url,
        type: response.type,
        transferBytes,
        bodyBytes: bytes.length,
        gzipBytes: gzipSync(bytes, { level: 9 }).length,
        contentEncoding: response.encoding,
      });
    }
    await cdp.detach();
    return downloads;
  };
}

/**
 * One visit as a person makes it, in a fresh browser context (empty cache, no cookie): the
 * login page, logging in, the home page, a reload (the session comes back from the cookie),
 * the sales-order list loaded from its address, then reached by links from the home page.
 */
export async function visit(
  browser: Browser,
  baseUrl: string,
  password: string,
): Promise<{ timings: Timings; firstScreen: Download[]; records: Download[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    const stopFirst = await recordDownloads(page);
    let start = performance.now();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('E-mail').waitFor();
    const loginReady = performance.now() - start;
    const firstScreen = await stopFirst();

    await page.getByLabel('E-mail').fill('admin@demo.test');
    await page.getByLabel('Password').fill(password);
    start = performance.now();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const loginToHome = performance.now() - start;

    start = performance.now();
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const reloadToHome = performance.now() - start;

    const stopRecords = await recordDownloads(page);
    start = performance.now();
    await page.goto(`${baseUrl}/records/sales-orders`);
    await page.locator('tbody tr').first().waitFor();
    const salesOrdersLoad = performance.now() - start;
    const records = await stopRecords();

    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    start = performance.now();
    await page.getByRole('link', { name: 'Sales orders' }).click();
    await page.locator('tbody tr').first().waitFor();
    const salesOrdersClientSide = performance.now() - start;

    return {
      timings: { loginReady, loginToHome, reloadToHome, salesOrdersLoad, salesOrdersClientSide },
      firstScreen,
      records,
    };
  } finally {
    await context.close();
  }
}
