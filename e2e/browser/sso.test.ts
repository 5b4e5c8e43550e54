/**
 * Single sign-on in the console (SPEC §13, §14), in Debian's Chromium against the real portal
 * and a real OpenID provider (oidc-provider, in this process; its login is completed by the
 * test's stand-in for a person, `nextIdentity`): an admin sets the provider up in Settings →
 * Single sign-on; someone new signs in from the login page and lands where they were going,
 * a member just in time; a password login in the now enforced tenant follows `sso_requis` to
 * the provider; a refused sign-in comes back to the login page saying why. Mouse flows, then
 * the first one again by keyboard alone; axe-core and screenshots on the new pages.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The portal's own test provider: one definition of "a real OpenID provider in the test".
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startOidcProvider,
  type TestOidcProvider,
} from '../../apps/portal/test/oidc-provider';
import { linkIn, startSmtpCapture } from '../../apps/worker/test/smtp-capture';
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
const DOMAIN = 'people.example';

let platform: Platform;
let browser: Browser;
let provider: TestOidcProvider;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  if (!existsSync(CONSOLE_DIST))
    throw new Error('apps/console/dist is missing: run `pnpm --filter @erp/console build` first');
  smtp = await startSmtpCapture();
  [platform, browser] = await Promise.all([
    startPlatform({
      portal: { SSO_ALLOW_INSECURE_ISSUERS: 'true' },
      worker: { SMTP_URL: smtp.url, MAIL_FROM: 'ERP <no-reply@e2e.test>' },
    }),
    launchBrowser(),
  ]);
  provider = await startOidcProvider([`${platform.portalUrl}/api/v1/auth/sso/callback`]);
});

afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await platform?.close();
  await smtp?.close();
});

const url = (pathname: string) => platform.portalUrl + pathname;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

async function logInWithPassword(page: Page, email: string, password: string) {
  await page.goto(url('/login'));
  const act = mouse(page);
  await act.fill('E-mail', email);
  await act.fill('Password', password);
  await act.press('button', 'Log in');
}

describe('single sign-on in the console', () => {
  it('an admin sets up the provider in Settings → Single sign-on', async () => {
    const page = await openPage(browser);
    const errors = watchBrowserErrors(page);
    await logInWithPassword(page, 'admin@demo.test', platform.secrets.adminPassword);
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    await mouse(page).press('link', 'Single sign-on');
    await expect.poll(() => heading(page).textContent()).toBe('Single sign-on');
    await expect
      .poll(() => page.getByText(`${platform.portalUrl}/api/v1/auth/sso/callback`).count())
      .toBe(1);
    const act = mouse(page);
    // An issuer that does not answer is shown next to its field.
    await act.fill('Issuer', 'http://127.0.0.1:9/');
    await act.fill('Client ID', CLIENT_ID);
    await act.fill('Client secret', CLIENT_SECRET);
    await act.fill('Domains that may join', DOMAIN);
    await act.select('Role of new members', 'sales:reader');
    await act.press('button', 'Save');
    await expect
      .poll(() => page.locator('.field-invalid').textContent())
      .toContain('could not be reached');
    await act.fill('Issuer', provider.issuer);
    await act.fill('Client secret', CLIENT_SECRET);
    await act.press('button', 'Save');
    await expect.poll(() => page.getByText('Saved: the provider answered').count()).toBe(1);
    await expect.poll(() => page.getByText('Offered beside passwords').count()).toBe(1);
    await expectAccessible(page, 'single sign-on settings');
    await screenshots(page, 'console-sso-settings');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await page.context().close();
  });

  for (const mode of ['mouse', 'keyboard'] as const) {
    it(`someone new signs in from the login page and lands where they were going (${mode})`, async () => {
      const page = await openPage(browser);
      const act = mode === 'mouse' ? mouse(page) : keyboard(page);
      provider.control.nextIdentity = {
        sub: `new-${mode}`,
        email: `new-${mode}@${DOMAIN}`,
        email_verified: true,
        name: `New ${mode}`,
      };
      await page.goto(url('/records/sales-orders'));
      await expect.poll(() => heading(page).textContent()).toBe('Log in');
      await act.fill('Organisation', 'demo');
      await act.press('button', 'Use single sign-on');
      await expect.poll(() => new URL(page.url()).pathname).toBe('/records/sales-orders');
      await expect.poll(() => heading(page).textContent()).toBe('Sales orders');
      // Signed in as the provider said, a member with the default role.
      await expect.poll(() => page.getByText(`new-${mode}@${DOMAIN}`).count()).toBeGreaterThan(0);
      const cookies = await page.context().cookies();
      expect(cookies.find((c) => c.name === 'erp_refresh')).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
        path: '/api/v1/auth/refresh',
      });
      expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['erp.console.tenant']);
      await page.context().close();
    });
  }

  it('a password login in an enforced tenant follows sso_requis to the provider', async () => {
    // Enforced now (the settings saved above), through the API as its super-admin.
    const base = `${platform.portalUrl}/api/v1`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const headers = {
      authorization: `Bearer ${token}`,
      'x-tenant': 'demo',
      'content-type': 'application/json',
    };
    const member = { email: 'member@partner.example', password: 'member password 123' };
    // A member with a password of their own: invited, then accepting through the mailed link.
    const added = await fetch(`${base}/settings/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: member.email, name: 'Member', roles: ['sales:editor'] }),
    });
    expect(added.status).toBe(201);
    const mail = await eventually('the invitation', async () =>
      smtp.received.find((m) => m.to.includes(member.email)),
    );
    const accepted = await fetch(`${base}/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: linkIn(mail).token, password: member.password }),
    });
    expect(accepted.status).toBe(200);
    const enforced = await fetch(`${base}/settings/sso`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        issuer: provider.issuer,
        client_id: CLIENT_ID,
        allowed_domains: [DOMAIN],
        default_role: 'sales:reader',
        enforced: true,
      }),
    });
    expect(enforced.status).toBe(200);

    const page = await openPage(browser);
    provider.control.nextIdentity = { sub: 'member', email: member.email, email_verified: true };
    await page.goto(url('/login'));
    const act = mouse(page);
    await act.fill('E-mail', member.email);
    await act.fill('Password', member.password);
    await act.fill('Organisation', 'demo');
    await act.press('button', 'Log in');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('signs in through its identity provider');
    await expectAccessible(page, 'login, single sign-on required');
    await act.press('link', 'Continue with single sign-on');
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    await expect.poll(() => page.getByText(member.email).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a refused sign-in comes back to the login page, saying why', async () => {
    const page = await openPage(browser);
    provider.control.nextIdentity = {
      sub: 'stranger',
      email: 'stranger@elsewhere.example',
      email_verified: true,
    };
    await page.goto(url('/login'));
    await mouse(page).fill('Organisation', 'demo');
    await mouse(page).press('button', 'Use single sign-on');
    await expect.poll(() => new URL(page.url()).searchParams.get('sso_error')).toBe('acces_refuse');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('not allowed in this organisation');
    await expectAccessible(page, 'login, sign-in refused');
    await screenshots(page, 'console-login-sso-refused');
    await page.context().close();
  });

  it('never logged the client secret', () => {
    expect(platform.output.join('\n')).not.toContain(CLIENT_SECRET);
    expect(platform.output.length).toBeGreaterThan(0);
  });
});
