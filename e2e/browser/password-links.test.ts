/**
 * A password reset and invitations from the console (SPEC §3, §13) in Debian's Chromium, against
 * the real portal and worker, the mail going through a real SMTP server in this test: "Forgot
 * your password?" on the login page, the mail's link, an error next to the field, the new
 * password, landing in the console; the same link refused the second time. An invitation
 * for someone new (their name and password, then the organisation), and one for someone with
 * an account in another tenant (signing in to it, or one button when already signed in as
 * them). By mouse, then by keyboard alone; axe-core on every screen; screenshots at 1280 and
 * 375 px; the link's token leaves the address bar and never reaches a log.
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
/** Every link's token the tests followed: none may appear in what the apps logged. */
const tokens: string[] = [];

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

/** An API session (`tenant`: the one to act in), to set things up the way an admin's console would. */
async function asAdmin(
  path: string,
  body: unknown,
  admin = { email: 'admin@demo.test', password: platform.secrets.adminPassword, tenant: 'demo' },
): Promise<Response> {
  const login = await post('/api/v1/auth/login', {
    email: admin.email,
    password: admin.password,
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return post(path, body, { authorization: `Bearer ${token}`, 'x-tenant': admin.tenant });
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${platform.portalUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The mail to `email` after the first `seen` ones. */
const mailTo = (email: string, seen = 0): Promise<CapturedMail> =>
  eventually(
    `a mail to ${email}`,
    async () => smtp.received.filter((m) => m.to.includes(email))[seen],
  );
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email)).length;

/** A tenant of its own (through the platform's provisioning) and its admin, to invite from. */
async function otherTenant(slug: string) {
  const admin = { email: `boss@${slug}.test`, password: `the boss of ${slug} passphrase` };
  const created = await post(
    '/api/v1/internal/tenants',
    { slug, name: `Tenant ${slug}`, plan_code: 'business', admin: { ...admin, name: 'Boss' } },
    { 'x-api-key': platform.secrets.internalApiKey },
  );
  expect(created.status, await created.clone().text()).toBe(201);
  return { ...admin, tenant: slug };
}

/** A member made as people are now: invited, then accepting with their own password. */
async function member(email: string, name: string, password: string): Promise<void> {
  const seen = mailsTo(email);
  expect(
    (await asAdmin('/api/v1/settings/users', { email, name, roles: ['sales:reader'] })).status,
  ).toBe(201);
  const { token } = linkIn(await mailTo(email, seen));
  tokens.push(token);
  expect((await post('/api/v1/auth/invitations/accept', { token, password })).status).toBe(200);
}

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
      await member(email, `Forgetful ${mode}`, 'the password I forgot');
      const seen = mailsTo(email);

      await page.goto(`${platform.portalUrl}/login`);
      await expect.poll(() => heading().textContent()).toBe('Log in');
      await act.press('link', 'Forgot your password?');
      await expect.poll(() => heading().textContent()).toBe('Reset your password');
      await look('reset-password-request');
      await act.fill('E-mail', email);
      await act.press('button', 'Send me a link');
      await expect.poll(() => page.getByRole('status').textContent()).toContain(email);

      const { url, token } = linkIn(await mailTo(email, seen));
      expect(url.origin).toBe(platform.portalUrl);
      await page.goto(url.href);
      await expect.poll(() => heading().textContent()).toBe('Choose a new password');
      // Read once, the token leaves the address bar (history, bookmarks, what is on screen).
      await expect.poll(() => page.url()).toBe(`${platform.portalUrl}/reset-password`);
      tokens.push(token);
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

    const invitee = `invitee-${mode}@demo.test`;
    const password = `my very first ${mode} passphrase`;

    it('lets someone new choose their name and password, and lands them in the organisation', async () => {
      const seen = mailsTo(invitee);
      const invited = await asAdmin('/api/v1/settings/users', {
        email: invitee,
        name: `Invitee ${mode}`,
        roles: ['sales:reader'],
      });
      expect(invited.status).toBe(201);
      const { url, token } = linkIn(await mailTo(invitee, seen));
      tokens.push(token);
      expect(url.pathname).toBe('/invitation');
      await page.context().clearCookies();
      await page.goto(url.href);
      await expect.poll(() => heading().textContent()).toBe('Join your organisation');
      await expect.poll(() => page.getByText('Demo SARL').count()).toBeGreaterThan(0);
      await expect.poll(() => new URL(page.url()).search).toBe('');
      // The name the invitation was addressed to, theirs to change.
      expect(await page.getByLabel(/^\s*Your name\s*$/).inputValue()).toBe(`Invitee ${mode}`);
      await look('invitation-new');
      await act.fill('Your name', `Ines ${mode}`);
      await act.fill('New password', password);
      await act.fill('New password, again', password);
      await act.press('button', 'Create my account and join');
      await expect
        .poll(() => page.getByRole('heading', { name: 'Overview' }).count(), { timeout: 15_000 })
        .toBe(1);
      expect(await page.locator('.tenant-name').textContent()).toBe('Demo SARL');

      // The link is spent: opening it again says so.
      await page.goto(url.href);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('ask for a new invitation');
      await look('invitation-dead');
    });

    it('lets someone with an account in another tenant accept by signing in to it', async () => {
      const acme = await otherTenant(`acme-${mode}`);
      const seen = mailsTo(invitee);
      const invited = await asAdmin(
        '/api/v1/settings/users',
        { email: invitee, name: 'A name Acme typed', roles: ['crm:reader'] },
        acme,
      );
      expect(invited.status).toBe(201);
      const { url, token } = linkIn(await mailTo(invitee, seen));
      tokens.push(token);
      await page.context().clearCookies();
      await page.goto(url.href);
      await expect
        .poll(() => page.getByRole('heading', { name: `Sign in as ${invitee} to accept` }).count())
        .toBe(1);
      await look('invitation-existing');
      await act.fill('Password', 'not my password at all');
      await act.press('button', 'Sign in and join');
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('identifiants_invalides');
      await act.fill('Password', password);
      await act.press('button', 'Sign in and join');
      await expect
        .poll(() => page.getByRole('heading', { name: 'Overview' }).count(), { timeout: 15_000 })
        .toBe(1);
      await expect
        .poll(() => page.locator('.tenant-name').textContent())
        .toBe(`Tenant ${acme.tenant}`);
      // The account keeps the name its person chose, whatever Acme's admin typed.
      expect(await page.getByText('A name Acme typed').count()).toBe(0);
      expect(await page.getByText(`Ines ${mode}`).count()).toBeGreaterThan(0);
    });

    it('lets someone already signed in as the invitee accept with one button', async () => {
      const globex = await otherTenant(`globex-${mode}`);
      const seen = mailsTo(invitee);
      const invited = await asAdmin(
        '/api/v1/settings/users',
        { email: invitee, name: 'Invitee', roles: ['crm:editor'] },
        globex,
      );
      expect(invited.status).toBe(201);
      const { url, token } = linkIn(await mailTo(invitee, seen));
      tokens.push(token);
      // Still signed in from the previous test, in this page.
      await page.goto(url.href);
      await expect.poll(() => page.getByText(`You are signed in as ${invitee}.`).count()).toBe(1);
      await look('invitation-signed-in');
      await act.press('button', `Join Tenant ${globex.tenant}`);
      await expect
        .poll(() => page.locator('.tenant-name').textContent(), { timeout: 15_000 })
        .toBe(`Tenant ${globex.tenant}`);
      expect(new URL(page.url()).pathname).toBe('/');
      // Refused requests (the 401 of the first session check, the 400s above) are the only noise.
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    });
  });
}

it('never logged the token of a link it followed', () => {
  expect(tokens.length).toBeGreaterThanOrEqual(8);
  const logged = platform.output.join('\n');
  expect(logged.length).toBeGreaterThan(0);
  expect(tokens.filter((token) => logged.includes(token))).toEqual([]);
});
