/**
 * The harness itself must be able to fail: a page with an unlabelled input, a focus outline
 * removed and a row wider than a phone is refused by the very helpers the real tests use.
 */
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshots,
  tabTo,
  tryInlineScript,
} from './harness';

const PAGES: Record<string, string> = {
  '/good': `<!doctype html><html lang="en"><head><title>Good</title></head><body><main>
    <h1>Good</h1><label for="q">Query</label><input id="q" name="q"><a href="/bad">Next</a>
  </main></body></html>`,
  '/bad': `<!doctype html><html lang="en"><head><title>Bad</title><style>
    a:focus { outline: none } .wide { width: 900px }</style></head><body><main>
    <h1>Bad</h1><input name="q"><a href="/good">Next</a><div class="wide">wide</div>
  </main></body></html>`,
};

let server: http.Server;
let origin: string;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    res.writeHead(body ? 200 : 404, {
      'content-type': 'text/html; charset=utf-8',
      // The shape of browserSecurityHeaders' policy; the style allowance lets /bad break focus.
      'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'",
    });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = await openPage(browser);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the browser harness', () => {
  it('passes a good page and reaches its link by keyboard with a visible focus', async () => {
    await page.goto(`${origin}/good`);
    await expectAccessible(page, 'good');
    await tabTo(page, 'link', 'Next');
    const files = await screenshots(page, 'harness-good');
    expect(files.map((file) => path.basename(file))).toEqual([
      'harness-good-1280.png',
      'harness-good-375.png',
    ]);
    for (const file of files) expect((await stat(file)).size).toBeGreaterThan(1000);
  });

  it('fails an unlabelled input, a removed focus outline and a page wider than 375 px', async () => {
    await page.goto(`${origin}/bad`);
    await expect(expectAccessible(page, 'bad')).rejects.toThrow(/critical label/);
    await expect(tabTo(page, 'link', 'Next')).rejects.toThrow(/focus indicator/);
    await expect(screenshots(page, 'harness-bad')).rejects.toThrow(/scrolls sideways at 375 px/);
  });

  it('sees the CSP refuse an inline script', async () => {
    await page.goto(`${origin}/good`);
    expect(await tryInlineScript(page)).toEqual({
      violatedDirective: 'script-src-elem',
      ran: false,
    });
  });
});
