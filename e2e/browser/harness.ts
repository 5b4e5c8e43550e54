/**
 * The browser side of the end-to-end tests: Debian's Chromium driven by playwright-core (never
 * a browser playwright downloads), axe-core for accessibility, screenshots at the two widths
 * SPEC §14 names, and keyboard helpers. Shared by landing's and the console's browser tests.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** `CHROMIUM_PATH` overrides it (another distribution, a developer's Chrome). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../artifacts/screenshots');
/** The widths pages must be usable at: a laptop and a small phone. */
export const WIDTHS = [1280, 375] as const;

/** Headless Chromium; its sandbox on, except as root (CI), where Chromium refuses to start with it. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: process.getuid?.() !== 0,
    // Containers give /dev/shm 64 MB, which a full-page screenshot can exhaust.
    args: ['--disable-dev-shm-usage'],
  });
}

/** A page in a fresh context (no cookie shared with other tests), 1280×800, English, reduced motion. */
export async function openPage(browser: Browser, url?: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  if (url) await page.goto(url);
  return page;
}

/** What went wrong in the page (uncaught errors, console errors, CSP reports), for assertions. */
export function watchBrowserErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Runs axe-core on the page as it is now and fails, naming each one, on any serious or critical
 * violation. axe's source is evaluated through the DevTools protocol, which the page's CSP does
 * not govern; an inline `<script>` would be refused, as it should be.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((node) => node.target.join(' ')),
    }));
  });
  const blocking = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.slice(0, 5).join(', ')})`);
  if (blocking.length) {
    throw new Error(
      `axe-core on ${label}: ${blocking.length} serious or critical violation(s)\n${blocking.join('\n')}`,
    );
  }
}

/**
 * Full-page screenshots at 1280 and 375 px into e2e/artifacts/screenshots/<name>-<width>.png
 * (kept as CI artifacts). At each width the page must not scroll sideways: what does not fit
 * 375 px is hidden from a phone. The viewport is restored afterwards.
 */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 800 };
  const files: string[] = [];
  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      files.push(file);
    }
  } finally {
    await page.setViewportSize(original);
  }
  return files;
}

type Role = Parameters<Page['getByRole']>[0];

/**
 * Presses Tab (at most `maxPresses` times) until the focused element is the one with this
 * role and accessible name, then checks that focus is visible on it. Fails if Tab never gets
 * there: what a keyboard user cannot reach, they cannot use.
 */
export async function tabTo(
  page: Page,
  role: Role,
  name: string | RegExp,
  maxPresses = 60,
): Promise<void> {
  const target = page.getByRole(role, { name });
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press('Tab');
    const focused = await target.evaluateAll((elements) =>
      elements.some((element) => element === document.activeElement),
    );
    if (focused) {
      await expectVisibleFocus(page);
      return;
    }
  }
  const at = await describeFocus(page);
  throw new Error(`Tab never reached ${role} "${name}" in ${maxPresses} presses (focus on ${at})`);
}

/**
 * The focused element shows it: an outline of at least 1 px in a non-transparent colour, or a
 * box shadow, and it is on screen. A stylesheet's `outline: none` without a replacement fails.
 */
export async function expectVisibleFocus(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return { visible: false, why: 'nothing focused' };
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    const outline =
      style.outlineStyle !== 'none' &&
      Number.parseFloat(style.outlineWidth) >= 1 &&
      !/rgba\([^)]*,\s*0\)|transparent/.test(style.outlineColor);
    const shadow = style.boxShadow !== 'none';
    const onScreen = box.width > 0 && box.height > 0;
    return {
      visible: (outline || shadow) && onScreen,
      why: `outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}, box-shadow ${style.boxShadow}, box ${box.width}×${box.height}`,
    };
  });
  expect(focus.visible, `focus indicator on ${await describeFocus(page)}: ${focus.why}`).toBe(true);
}

/** The focused element, for failure messages: `a "Pricing"`. */
export function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return 'nothing';
    const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    return `${element.tagName.toLowerCase()} "${text.slice(0, 40)}"`;
  });
}

/**
 * Adds an inline `<script>` to the page and reports whether the CSP refused it: the
 * `securitypolicyviolation` event's directive, and whether the script ran anyway.
 */
export function tryInlineScript(
  page: Page,
): Promise<{ violatedDirective: string | undefined; ran: boolean }> {
  return page.evaluate(async () => {
    const flag = '__inlineScriptRan';
    const violation = new Promise<string | undefined>((resolve) => {
      document.addEventListener(
        'securitypolicyviolation',
        (event) => resolve(event.effectiveDirective),
        {
          once: true,
        },
      );
      setTimeout(() => resolve(undefined), 2_000);
    });
    const script = document.createElement('script');
    script.textContent = `window.${flag} = true;`;
    document.body.append(script);
    const violatedDirective = await violation;
    return { violatedDirective, ran: flag in window };
  });
}
