/**
 * A password reset and an invitation from the console (SPEC §13) in Debian's Chromium, against
 * the real portal and worker, the mail going through a real SMTP server in this test: "Forgot
 * your password?" on the login page, the mail's link, an error next to the field, the new
 * password, landing in the console; the same link refused the second time. By mouse, then by
 * keyboard alone; axe-core on every screen; screenshots at 1280 and 375 px.
 * The console must be built (turbo's e2e test depends on @erp/console#build).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapturedMail, linkIn, startSmtpCapture } from '../../apps/worker/test/smtp-capture';
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

let platform: Platform;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  if (!existsSync(CONSOLE_DIST))
    throw new Error('apps/console/dist is missing: run `pnpm --filter @erp/console build` first');
  smtp = await startSmtpCapture();
  [platform, browser] = await Promise.all([
    startPlatform({ worker: { SMTP_URL: smtp.url, MAIL_FROM: 'ERP <no-reply@e2e.test>' } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await smtp?.close();
});

/** The admin's API session, to set up users the way an admin's console would. */
async function asAdmin(path: string, body: unknown): Promise<Response> {
  const login = await fetch(`${platform.portalUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return fetch(`${platform.portalUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-tenant': 'demo',
    },
    body: JSON.stringify(body),
  });
}

const mailTo = (email: string): Promise<CapturedMail> =>
  eventually(`a mail to ${email}`, async () => smtp.received.find((m) => m.to.includes(email)));

for (const mode of ['mouse', 'keyboard'] as const) {
  describe(`password links in the console, by ${mode}`, () => {
    let page: Page;
    let act: Actor;
    let errors: string[];
    const heading = () => page.getByRole('heading', { level: 1 });
    const look = async (name: string) => {
      await expectAccessible(page, `${name} (${mode})`);
      if (mode === 'mouse') await screenshots(page, `console-${name}`);
    };

    beforeAll(async () => {
      page = await openPage(browser);
      errors = watchBrowserErrors(page);
      act = mode === 'mouse' ? mouse(page) : keyboard(page);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('resets a forgotten password from the login page, through the mailed link', async () => {
      const email = `forgetful-${mode}@demo.test`;
      const created = await asAdmin('/api/v1/settings/users', {
        email,
        name: `Forgetful ${mode}`,
        roles: ['sales:reader'],
        password: 'the password I forgot',
      });
      expect(created.status).toBe(201);

      await page.goto(`${platform.portalUrl}/login`);
      await expect.poll(() => heading().textContent()).toBe('Log in');
      await act.press('link', 'Forgot your password?');
      await expect.poll(() => heading().textContent()).toBe('Reset your password');
      await look('reset-password-request');
      await act.fill('E-mail', email);
      await act.press('button', 'Send me a link');
      await expect.poll(() => page.getByRole('status').textContent()).toContain(email);

      const { url } = linkIn(await mailTo(email));
      expect(url.origin).toBe(platform.portalUrl);
      await page.goto(url.href);
      await expect.poll(() => heading().textContent()).toBe('Choose a new password');
      await look('reset-password-choose');

      // Too short: the portal's answer is shown next to the field, which says it is invalid.
      await act.fill('New password', 'too short');
      await act.fill('New password, again', 'too short');
      await act.press('button', 'Set my password');
      const password = page.getByLabel(/^\s*New password\s*$/);
      await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
      const described = (await password.getAttribute('aria-describedby')) ?? '';
      const fieldError = page.locator(`[id="${described.split(' ').at(-1)}"]`);
      expect(await fieldError.textContent()).toMatch(/12/);
      await look('reset-password-invalid');

      // Two different passwords: said next to the second field, nothing sent.
      await act.fill('New password', 'a long enough passphrase');
      await act.fill('New password, again', 'a different passphrase');
      await act.press('button', 'Set my password');
      await expect
        .poll(() => page.getByLabel(/New password, again/).getAttribute('aria-invalid'))
        .toBe('true');

      await act.fill('New password, again', 'a long enough passphrase');
      await act.press('button', 'Set my password');
      // Logged in with it, in the console.
      await expect
        .poll(() => page.getByRole('heading', { name: 'Overview' }).count(), { timeout: 15_000 })
        .toBe(1);

      // The link is spent: opening it again says so, and offers a new one.
      const second = await openPage(browser, url.href);
      try {
        await expect
          .poll(() => second.getByRole('heading', { level: 1 }).textContent())
          .toBe('Choose a new password');
        await second.getByLabel(/^\s*New password\s*$/).fill('yet another passphrase');
        await second.getByLabel(/New password, again/).fill('yet another passphrase');
        await second.getByRole('button', { name: 'Set my password' }).click();
        await expect
          .poll(() => second.getByRole('alert').textContent())
          .toContain('already been used');
        expect(await second.getByRole('link', { name: 'Ask for a new link' }).count()).toBe(1);
      } finally {
        await second.context().close();
      }
      // Refused requests (the 401 of the first session check, the 400s above) are the only noise.
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    });

    it('lets an invitee choose a password and lands them in the organisation', async () => {
      const email = `invitee-${mode}@demo.test`;
      const invited = await asAdmin('/api/v1/settings/users', {
        email,
        name: `Invitee ${mode}`,
        roles: ['sales:reader'],
      });
      expect(invited.status).toBe(201);
      const { url } = linkIn(await mailTo(email));
      expect(url.pathname).toBe('/invitation');
      await page.context().clearCookies();
      await page.goto(url.href);
      await expect.poll(() => heading().textContent()).toBe('Join your organisation');
      await look('invitation');
      await act.fill('New password', 'my very first passphrase');
      await act.fill('New password, again', 'my very first passphrase');
      await act.press('button', 'Set my password and join');
      await expect
        .poll(() => page.getByRole('heading', { name: 'Overview' }).count(), { timeout: 15_000 })
        .toBe(1);
    });
  });
}
