import type { Browser, Locator, Page } from 'playwright-core';

/** What one visit waits for in one reference: the first operations, and an operation by link. */
export interface ReferenceTargets {
  /** The `module` of the address: a part (`sales`) or `all` (the whole document in one page). */
  part: string;
  /**
   * The path of the first operation Scalar lists (the first tag of the first group): the tag
   * opens with its list of operations, the same signal in the whole and in a part.
   */
  firstPath: string;
  /** Scalar's anchor of the operation opened by link, and its summary. */
  linkAnchor: string;
  linkSummary: string;
}

/** Milliseconds from the start of a navigation to what a reader waits for. */
export interface ReferenceTimings {
  /** A part only: its operations as the page lists them, server-rendered, before Scalar. */
  operationsListed?: number;
  firstOperations: number;
  /** A part only, by link: the operation's entry in that list, marked and scrolled to, before Scalar. */
  operationListedByLink?: number;
  operationByLink: number;
}

/** How long one wait may take: the whole document took ~11 s alone, several times that under load. */
const BOUND_MS = 240_000;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * Waits until the element is rendered; `onScreen`: and scrolled to (a link lands on its
 * operation; the first operations sit below the document's introduction). With several, the
 * first of them to be on screen (one may be taken away while another appears).
 */
async function shown(page: Page, what: Locator | Locator[], onScreen: boolean): Promise<void> {
  const all = Array.isArray(what) ? what : [what];
  if (!onScreen) {
    await all[0]!.first().waitFor({ state: 'visible', timeout: BOUND_MS });
    return;
  }
  // boundingBox() is relative to the viewport: on screen once its top is within the window.
  const deadline = performance.now() + BOUND_MS;
  for (;;) {
    for (const one of all) {
      const element = one.first();
      // Neither waits: an element not there yet, hidden or just taken away is looked at again.
      const box = (await element.isVisible())
        ? await element.boundingBox({ timeout: 1000 }).catch(() => null)
        : null;
      if (box && box.y >= 0 && box.y < VIEWPORT.height) return;
    }
    if (performance.now() > deadline)
      throw new Error(`${all.join(' or ')} never scrolled into view`);
    await page.waitForTimeout(20);
  }
}

/** Each measure in its own fresh context (empty cache), as a first visit. */
async function timed(
  browser: Browser,
  url: string,
  what: (page: Page) => Locator | Locator[],
  onScreen = false,
): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const start = performance.now();
    // From the response's first bytes on: the load event waits for Scalar's bundle, which the
    // page adds, and would hide when the part's list was shown.
    await page.goto(url, { waitUntil: 'commit' });
    await shown(page, what(page), onScreen);
    return performance.now() - start;
  } finally {
    await context.close();
  }
}

/** The index page: navigation → its heading shown (no Scalar on it). */
export async function timeIndex(browser: Browser, baseUrl: string): Promise<number> {
  return timed(browser, `${baseUrl}/api/v1/docs`, (page) =>
    page.getByRole('heading', { name: 'ERP business API reference', exact: true }),
  );
}

/** One reference: navigation → its first operations shown; navigation by link → that operation. */
export async function timeReference(
  browser: Browser,
  baseUrl: string,
  targets: ReferenceTargets,
): Promise<ReferenceTimings> {
  const page = `${baseUrl}/api/v1/docs?module=${targets.part}`;
  const link = `${page}#${targets.linkAnchor}`;
  const listed =
    targets.part === 'all'
      ? {}
      : {
          operationsListed: await timed(browser, page, (p) =>
            p.locator('#index li.current .operations a'),
          ),
          // The marked entry, or Scalar's own heading when Scalar has loaded first and taken
          // the list away (the reader has the operation either way; waiting for the list alone
          // then never ended).
          operationListedByLink: await timed(
            browser,
            link,
            (p) => [
              p.locator('#index .operations a[aria-current="location"]'),
              operationHeading(p, targets.linkSummary),
            ],
            true,
          ),
        };
  return {
    ...listed,
    firstOperations: await timed(browser, page, (p) =>
      p.locator('#reference').getByText(targets.firstPath, { exact: true }),
    ),
    operationByLink: await timed(
      browser,
      link,
      (p) => operationHeading(p, targets.linkSummary),
      true,
    ),
  };
}

/** Scalar's heading of an operation, by its summary. */
function operationHeading(page: Page, summary: string): Locator {
  return page.locator('#reference').getByRole('heading', { name: summary, exact: true });
}
