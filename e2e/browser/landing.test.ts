/**
 * Landing's marketing pages in a real Chromium against the real portal, landing and worker:
 * the plans on the pricing page, the contact form (with an error fixed on the way), an
 * onboarding claimed after a Stripe checkout; each flow also by keyboard alone; axe-core on
 * every page; screenshots at 1280 and 375 px; the CSP refusing an inline script.
 */
import { createHash } from 'node:crypto';
import { sql } from '@erp/db';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type Platform, startPlatform } from '../test/platform';
import { stripePurchase } from '../test/stripe-events';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshots,
  tabTo,
  tryInlineScript,
  watchBrowserErrors,
} from './harness';

let platform: Platform;
let browser: Browser;
beforeAll(async () => {
  [platform, browser] = await Promise.all([
    // Every form post of this file comes from 127.0.0.1: the hourly budget must cover them.
    startPlatform({ landing: { FORM_RATE_LIMIT_PER_HOUR: '100' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/** A fresh page on landing, whose errors (console, uncaught, CSP) the test checks at the end. */
async function landingPage(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await openPage(browser);
  const errors = watchBrowserErrors(page);
  const response = await page.goto(`${platform.landingUrl}${path}`);
  expect(response?.status()).toBe(200);
  return { page, errors };
}

/** axe-core and the two screenshots, for the page as it is now. */
async function checkPage(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await screenshots(page, `landing-${name}`);
}

/** The element's text once it is on the page (after a navigation the click started). */
async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor();
  return (await locator.textContent()) ?? '';
}

async function leadsFrom(email: string) {
  const { rows } = await sql<{ kind: string; name: string; message: string | null }>`
    SELECT kind, name, message FROM landing.leads WHERE email = ${email}`.execute(platform.db.db);
  return rows;
}

describe('landing in a browser', () => {
  it('the home page: accessible, readable at 375 px, its way to pricing', async () => {
    const { page, errors } = await landingPage('/');
    expect(await page.title()).toMatch(/^ERP Platform: /);
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBeTruthy();
    await checkPage(page, 'home');
    await page.getByRole('link', { name: 'See pricing' }).click();
    await page.waitForURL('**/pricing');
    expect(errors).toEqual([]);
  });

  it('the pricing page shows the portal’s plans', async () => {
    const { page, errors } = await landingPage('/pricing');
    for (const [plan, price] of [
      ['Starter', '€19'],
      ['Business', '€49'],
      ['Enterprise', '€149'],
    ]) {
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: plan }) });
      await card.getByText(`${price} per month`).waitFor();
    }
    await checkPage(page, 'pricing');
    expect(errors).toEqual([]);
  });

  it('the pricing page by keyboard: from the top, Tab reaches a plan’s demo link and Enter follows it', async () => {
    const { page } = await landingPage('/');
    await tabTo(page, 'link', 'Pricing');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/pricing');
    await tabTo(page, 'link', 'Book a demo of the Business plan');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/demo');
  });

  it('the contact form: an error shown beside its field, fixed, then sent and stored', async () => {
    const { page, errors } = await landingPage('/contact');
    await checkPage(page, 'contact');
    await page.getByRole('textbox', { name: 'Your name' }).fill('Claire Martin');
    await page.getByRole('textbox', { name: 'Work e-mail' }).fill('claire@example');
    await page.getByRole('textbox', { name: 'Your message' }).fill('A demo for 20 people?');
    await page.getByRole('button', { name: 'Send message' }).click();

    const email = page.getByRole('textbox', { name: 'Work e-mail' });
    expect(await textOf(page.getByRole('alert'))).toMatch(/Please check the form/);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Enter an e-mail address, like name@example.com.').count()).toBe(2);
    expect(await page.getByRole('textbox', { name: 'Your name' }).inputValue()).toBe(
      'Claire Martin',
    );
    await checkPage(page, 'contact-errors');

    await email.fill('claire.mouse@example.test');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.waitForURL('**/contact/thanks');
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(
      'Thank you, your message is sent',
    );
    await checkPage(page, 'contact-thanks');
    expect(await leadsFrom('claire.mouse@example.test')).toEqual([
      { kind: 'contact', name: 'Claire Martin', message: 'A demo for 20 people?' },
    ]);
    // The 400 of the refused post is the only thing the console reports.
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });

  it('the contact form by keyboard alone', async () => {
    const { page } = await landingPage('/');
    await tabTo(page, 'link', 'Contact');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/contact');
    await tabTo(page, 'textbox', 'Your name');
    await page.keyboard.type('Kim Keyboard');
    await tabTo(page, 'textbox', 'Work e-mail');
    await page.keyboard.type('kim.keyboard@example.test');
    await tabTo(page, 'textbox', 'Your message');
    await page.keyboard.type('Sent without a mouse.');
    await tabTo(page, 'button', 'Send message');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/contact/thanks');
    expect(await leadsFrom('kim.keyboard@example.test')).toEqual([
      { kind: 'contact', name: 'Kim Keyboard', message: 'Sent without a mouse.' },
    ]);
  });

  it('the demo form by keyboard alone, ticking modules with Space', async () => {
    const { page, errors } = await landingPage('/demo');
    await checkPage(page, 'demo');
    await tabTo(page, 'textbox', 'Your name');
    await page.keyboard.type('Dana Demo');
    await tabTo(page, 'textbox', 'Work e-mail');
    await page.keyboard.type('dana.demo@example.test');
    await tabTo(page, 'textbox', 'Company');
    await page.keyboard.type('Demo SARL');
    await tabTo(page, 'checkbox', 'Inventory');
    await page.keyboard.press('Space');
    await tabTo(page, 'checkbox', 'Support');
    await page.keyboard.press('Space');
    await tabTo(page, 'button', 'Request a demo');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/demo/thanks');
    const { rows } = await sql<{ details: unknown }>`
      SELECT details FROM landing.leads WHERE email = 'dana.demo@example.test'`.execute(
      platform.db.db,
    );
    expect(rows).toEqual([{ details: { modules_wanted: 'inventory,support' } }]);
    expect(errors).toEqual([]);
  });

  describe('onboarding after a Stripe checkout', () => {
    async function checkout(suffix: string): Promise<{ reference: string; email: string }> {
      const email = `owner-${suffix}@browser.test`;
      // Landing issues the reference before the checkout, which carries it to Stripe and back.
      const { reference, checkout: sent } = await stripePurchase(
        platform.landingUrl,
        platform.secrets.paymentSecret,
        {
          eventId: `evt_browser_${suffix}`,
          sessionId: `cs_test_browser_${suffix}`,
          subscriptionId: `sub_browser_${suffix}`,
          slug: `browser-${suffix}`,
          company: `Browser ${suffix}`,
          planCode: 'starter',
          email,
          name: 'Owen Owner',
        },
      );
      expect(sent.response.status).toBe(200);
      // The worker provisions the tenant on the portal, then writes the onboarding (by digest).
      const digest = createHash('sha256').update(reference).digest('hex');
      await eventually('the onboarding to be written', async () => {
        const { rows } =
          await sql`SELECT 1 FROM landing.onboardings WHERE reference = ${digest}`.execute(
            platform.db.db,
          );
        return rows.length > 0;
      });
      return { reference, email };
    }

    /** The password works: the portal logs the new admin in. */
    async function expectLogin(email: string, password: string, tenant: string) {
      const login = await fetch(`${platform.portalUrl}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, tenant }),
      });
      expect(login.status).toBe(200);
    }

    it('claims the first login once, from the link the checkout returns to', async () => {
      const { reference, email } = await checkout('mouse');
      const { page, errors } = await landingPage(`/onboarding?reference=${reference}`);
      await checkPage(page, 'onboarding');
      expect(await page.getByRole('textbox', { name: 'Purchase reference' }).inputValue()).toBe(
        reference,
      );
      await page.getByRole('button', { name: 'Show my login' }).click();
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toMatch(
        /Your account is ready/,
      );
      const shown = await page.locator('dl.secret dd').allTextContents();
      expect(shown.slice(0, 2)).toEqual(['browser-mouse', email]);
      await expectLogin(email, shown[2] as string, 'browser-mouse');
      expect(
        await page.getByRole('link', { name: 'Log in to the console' }).getAttribute('href'),
      ).toBe(`${platform.portalUrl}/login`);
      await checkPage(page, 'onboarding-claimed');

      // Once only: the same reference again is refused, and shows no password.
      await page.goto(`${platform.landingUrl}/onboarding?reference=${reference}`);
      await page.getByRole('button', { name: 'Show my login' }).click();
      expect(await textOf(page.getByRole('alert'))).toMatch(/no account to claim/);
      expect(await page.locator('dl.secret').count()).toBe(0);
      await checkPage(page, 'onboarding-refused');
      expect(errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
    });

    it('claims it by keyboard alone, typing the reference', async () => {
      const { reference, email } = await checkout('keyboard');
      const { page } = await landingPage('/');
      await tabTo(page, 'link', 'Claim your account');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/onboarding');
      await tabTo(page, 'textbox', 'Purchase reference');
      await page.keyboard.type(reference);
      await page.keyboard.press('Enter');
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toMatch(
        /Your account is ready/,
      );
      const shown = await page.locator('dl.secret dd').allTextContents();
      await expectLogin(email, shown[2] as string, 'browser-keyboard');
      await tabTo(page, 'link', 'Log in to the console');
    });
  });

  it('the CSP refuses an inline script on landing’s pages', async () => {
    const { page } = await landingPage('/contact');
    expect(await tryInlineScript(page)).toEqual({
      violatedDirective: 'script-src-elem',
      ran: false,
    });
  });
});
