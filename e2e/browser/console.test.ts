/**
 * The console (SPEC §14) in Debian's Chromium against the real portal, worker and landing:
 * log in; API keys (shown once, then only the prefix; revoked); a webhook subscription to a
 * receiver in this test (test delivery, the log, replay, secret rotation); sales orders
 * filtered by `status=eq.confirme`, one opened, a draft confirmed; a customer created after a
 * validation error is fixed. Every flow runs with the mouse, then by keyboard alone; axe-core
 * checks every page; screenshots at 1280 and 375 px; no token in web storage. Settings → Users:
 * an invitation sent, its roles changed, withdrawn; the last super-admin kept; an admin who is
 * not a super-admin offered module roles only, and shown the portal’s refusal.
 * The console must be built (turbo's e2e test depends on @erp/console#build).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { verifyWebhookSignature } from '@erp/sdk';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpCapture } from '../../apps/worker/test/smtp-capture';
import { eventually, type Platform, startPlatform } from '../test/platform';
import { type Actor, keyboard, mouse } from './console-actors';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshots,
  tryInlineScript,
  watchBrowserErrors,
} from './harness';

const CONSOLE_DIST = path.resolve(import.meta.dirname, '../../apps/console/dist/index.html');

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let platform: Platform;
let browser: Browser;
let receiver: http.Server;
let receiverUrl: string;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
const received: Received[] = [];

beforeAll(async () => {
  if (!existsSync(CONSOLE_DIST))
    throw new Error('apps/console/dist is missing: run `pnpm --filter @erp/console build` first');
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  smtp = await startSmtpCapture();
  [platform, browser] = await Promise.all([
    startPlatform({ worker: { SMTP_URL: smtp.url, MAIL_FROM: 'ERP <no-reply@e2e.test>' } }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await smtp?.close();
});

/** Delivered requests of one event type. */
const deliveriesOf = (type: string) =>
  received.filter((r) => r.headers['x-service-event'] === type);

for (const mode of ['mouse', 'keyboard'] as const) {
  describe(`the console, by ${mode}`, () => {
    let page: Page;
    let act: Actor;
    let errors: string[];
    const url = (pathname: string) => platform.portalUrl + pathname;
    const heading = () => page.getByRole('heading', { level: 1 });
    /** axe on every page; screenshots once (the mouse run), since both runs see the same pages. */
    const look = async (name: string) => {
      // Reference names and other follow-up reads arrive after the page's first render.
      await quiet();
      await expectAccessible(page, `${name} (${mode})`);
      if (mode === 'mouse') await screenshots(page, `console-${name}`);
    };

    // Requests in flight: a page is photographed once none has been for a moment.
    const inFlight = new Set<Request>();
    const quiet = () =>
      eventually(
        'the page to stop fetching',
        async () => {
          if (inFlight.size) return false;
          await new Promise((resolve) => setTimeout(resolve, 300));
          return inFlight.size === 0;
        },
        10_000,
      ).catch((error) => {
        throw new Error(`${error.message}: ${[...inFlight].map((r) => r.url()).join(', ')}`);
      });

    beforeAll(async () => {
      page = await openPage(browser);
      errors = watchBrowserErrors(page);
      // Counted to the answer's headers: a body nobody reads (a refused refresh) never "finishes".
      page.on('request', (request) => inFlight.add(request));
      page.on('response', (response) => inFlight.delete(response.request()));
      page.on('requestfailed', (request) => inFlight.delete(request));
      act = mode === 'mouse' ? mouse(page) : keyboard(page);
    });

    afterAll(async () => {
      await page?.context().close();
    });

    it('logs in with a password, landing in the only organisation', async () => {
      await page.goto(url('/settings/api-keys'));
      await expect.poll(() => heading().textContent()).toBe('Log in');
      expect(new URL(page.url()).pathname).toBe('/login');
      await look('login');
      await act.fill('E-mail', 'admin@demo.test');
      await act.fill('Password', 'wrong password');
      await act.press('button', 'Log in');
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('identifiants_invalides');
      await act.fill('Password', platform.secrets.adminPassword);
      await act.press('button', 'Log in');
      // Back where the login began (the `next` of the address).
      await expect.poll(() => heading().textContent()).toBe('API keys');
      await page.goto(url('/'));
      await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
      await look('home');
    });

    it('creates an API key, shows it once, then only its prefix, and revokes it', async () => {
      const name = `CI key ${mode}`;
      await page.goto(url('/settings/api-keys'));
      await expect.poll(() => heading().textContent()).toBe('API keys');
      await act.fill('Name', name);
      await act.check('sales:read');
      await act.press('button', 'Create key');
      const secret = page.locator('[data-secret]');
      await expect.poll(() => secret.count()).toBe(1);
      const key = (await secret.textContent()) ?? '';
      expect(key).toMatch(/^service_live_[A-Za-z0-9]+_[A-Za-z0-9]+$/);
      // The panel takes the focus, so the one chance to copy the key is not missed.
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('secret');
      const prefix = key.split('_')[2]!;
      expect(await callWithKey(key)).toBe(200);
      await act.press('button', 'Done, I have stored it');
      await expect.poll(() => secret.count()).toBe(0);
      const row = page.getByRole('row', { name: new RegExp(`^${name}`) });
      await expect.poll(() => row.textContent()).toContain(prefix);
      expect(await page.content()).not.toContain(key);
      await look('api-keys');

      await act.press('button', `Revoke ${name}`);
      await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
      await look('api-keys-revoke-dialog');
      await act.press('button', 'Revoke');
      await expect.poll(() => row.textContent()).toContain('Revoked');
      expect(await callWithKey(key)).toBe(401);
      // After a reload only the prefix is known to the page.
      await page.reload();
      await expect.poll(() => row.textContent()).toContain(prefix);
      expect(await page.content()).not.toContain(key);
    });

    it('shows that key’s creation and revocation in Settings → Audit log, filtered by action, never the key', async () => {
      const name = `CI key ${mode}`;
      await page.goto(url('/settings/audit-log'));
      await expect.poll(() => heading().textContent()).toBe('Audit log');
      await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
      // Newest first: the revocation, then the creation, both by the admin who did them.
      const rows = page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(0).textContent()).toContain('API key revoked');
      expect(await rows.nth(1).textContent()).toContain('API key created');
      expect(await rows.nth(1).textContent()).toContain('Admin');
      await act.select('Action', 'api_key.created');
      await expect.poll(() => rows.count()).toBe(1);
      const created = await rows.nth(0).textContent();
      expect(created).toContain('sales:read');
      expect(created).toContain('127.0.0.1');
      const all = page.getByRole('row');
      await expect
        .poll(async () =>
          (await all.allTextContents()).slice(1).every((t) => t.includes('API key created')),
        )
        .toBe(true);
      expect(await page.content()).not.toMatch(/service_live_[A-Za-z0-9]+_[A-Za-z0-9]{20}/);
      await look('audit-log');
    });

    it('subscribes a webhook, sends a test delivery, sees and replays it, rotates the secret', async () => {
      const endpoint = `${receiverUrl}/hook/${mode}`;
      await page.goto(url('/settings/webhooks'));
      await expect.poll(() => heading().textContent()).toBe('Webhooks');
      await act.fill('Endpoint URL', endpoint);
      await act.fill('Description', `Receiver of the ${mode} run`);
      await act.check('sales_order.created');
      await act.check('sales_order.status_changed');
      await act.press('button', 'Add subscription');
      const secretCode = page.locator('[data-secret]');
      await expect.poll(() => secretCode.count()).toBe(1);
      const secret = (await secretCode.textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await look('webhooks');
      await act.press('button', 'Done, I have stored it');
      await act.press('link', endpoint);
      await expect.poll(() => heading().textContent()).toBe('Webhook subscription');

      const before = deliveriesOf('webhook.test').length;
      await act.press('button', 'Send test delivery');
      const logRow = page.getByRole('row', { name: /webhook\.test/ }).first();
      await expect.poll(() => logRow.textContent(), { timeout: 20_000 }).toContain('delivered');
      const first = await eventually('the test delivery', async () =>
        deliveriesOf('webhook.test').length > before
          ? deliveriesOf('webhook.test').at(-1)
          : undefined,
      );
      const verified = await verifyWebhookSignature({
        payload: first.body,
        headers: first.headers,
        secret,
      });
      expect(verified.error).toBeUndefined();

      await act.press('button', /^Attempts of webhook\.test/);
      await expect.poll(() => page.getByText(/Attempt 1/).count()).toBeGreaterThan(0);
      expect(await page.getByText('HTTP 200').count()).toBeGreaterThan(0);
      await look('webhook');

      await act.press('button', /^Replay webhook\.test/);
      const replay = await eventually('the replay', async () =>
        deliveriesOf('webhook.test').length > before + 1
          ? deliveriesOf('webhook.test').at(-1)
          : undefined,
      );
      // A replay is the same delivery (its id), signed anew.
      expect(replay.headers['x-service-delivery-id']).toBe(first.headers['x-service-delivery-id']);
      // The open attempt list follows: the replay is attempt 2, made by hand.
      await expect.poll(() => page.getByText('Attempt 2').count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByText('(manual)').count()).toBeGreaterThan(0);

      await act.select('Status', 'delivered');
      await expect.poll(() => logRow.textContent()).toContain('delivered');

      await act.press('button', 'Rotate secret');
      await act.fill('Keep signing with the current secret for (hours)', '24');
      await act.press('button', 'Rotate');
      await expect.poll(() => secretCode.count()).toBe(1);
      const rotated = (await secretCode.textContent()) ?? '';
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await act.press('button', 'Done, I have stored it');
      await expect.poll(() => page.getByText(/still signing until/).count()).toBe(1);

      const count = deliveriesOf('webhook.test').length;
      await act.press('button', 'Send test delivery');
      const signedTwice = await eventually('a delivery after the rotation', async () =>
        deliveriesOf('webhook.test').length > count
          ? deliveriesOf('webhook.test').at(-1)
          : undefined,
      );
      // During the overlap both secrets sign.
      expect(String(signedTwice.headers['x-service-signature']).split(',')).toHaveLength(2);
      for (const key of [secret, rotated]) {
        const check = await verifyWebhookSignature({
          payload: signedTwice.body,
          headers: signedTwice.headers,
          secret: key,
        });
        expect(check.error).toBeUndefined();
      }
    });

    it('says prominently that the platform disabled a failing endpoint, and re-enables it with a recover since the failure began', async () => {
      const endpoint = `${receiverUrl}/hook/${mode}`;
      // As the worker leaves an endpoint that failed for 5 days: disabled, one failed delivery.
      const failingSince = new Date(Date.now() - 6 * 86_400_000);
      const { rows } = await platform.db.pool.query<{ id: string }>(
        `WITH s AS (
           UPDATE webhook_subscriptions SET enabled = false, disabled_reason = 'failing',
             disabled_at = now(), failing_since = $2, consecutive_failures = 3
           WHERE url = $1 RETURNING id, tenant_id)
         UPDATE webhook_deliveries d SET status = 'failed', attempts = 20, created_at = $2
         FROM s WHERE d.subscription_id = s.id
           AND d.id = (SELECT id FROM webhook_deliveries WHERE subscription_id = s.id ORDER BY id LIMIT 1)
         RETURNING s.id`,
        [endpoint, failingSince],
      );
      const { id } = rows[0]!;
      await page.goto(url('/settings/webhooks'));
      await expect
        .poll(() => page.getByRole('row', { name: new RegExp(endpoint) }).textContent())
        .toContain('Disabled: endpoint kept failing');
      await page.goto(url(`/settings/webhooks/${id}`));
      const banner = page.getByRole('region', { name: 'Disabled by the platform' });
      await expect.poll(() => banner.count()).toBe(1);
      expect(await banner.textContent()).toContain('every delivery attempt has failed since');
      expect(await banner.textContent()).toContain('disabled_reason: failing');
      await look('webhook-disabled');
      const before = deliveriesOf('webhook.test').length;
      await act.press('button', /^Re-enable and recover since/);
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .toContainEqual(expect.stringContaining('1 failed deliveries queued again'));
      await expect.poll(() => banner.count()).toBe(0);
      // The failed delivery goes out again.
      await eventually('the recovered delivery', async () =>
        deliveriesOf('webhook.test').length > before ? true : undefined,
      );
    });

    it('lists sales orders filtered by status=eq.confirme, opens one, confirms a draft', async () => {
      await page.goto(url('/records'));
      await expect.poll(() => heading().textContent()).toBe('Records');
      await look('records');
      await act.press('link', 'Sales orders');
      await expect.poll(() => heading().textContent()).toBe('Sales orders');
      await act.press('button', 'Add filter');
      await act.select('Field', 'status');
      await act.select('Operator', 'eq');
      await act.select('Value', 'confirme');
      await act.press('button', 'Apply filters');
      await expect.poll(() => new URL(page.url()).search).toBe('?status=eq.confirme');
      // The rows on screen until the filtered page arrives are the unfiltered ones.
      const statuses = page.locator('table[aria-busy="false"] tbody .badge');
      await expect
        .poll(async () => [...new Set(await statuses.allTextContents())])
        .toEqual(['confirme']);
      await look('sales-orders');

      const number = (await page.locator('tbody th a').first().textContent()) ?? '';
      await act.press('link', number);
      await expect.poll(() => heading().textContent()).toBe(`Sales order ${number}`);
      expect(await page.getByRole('button', { name: 'Confirm', exact: true }).count()).toBe(0);
      await look('sales-order');

      const draft = await draftOrder(platform);
      await page.goto(url(`/records/sales-orders?status=eq.brouillon&number=eq.${draft}`));
      await expect.poll(() => page.locator('tbody th a').count()).toBe(1);
      await act.press('link', draft);
      await expect.poll(() => heading().textContent()).toBe(`Sales order ${draft}`);
      await act.press('button', 'Confirm');
      await expect
        .poll(() => page.getByRole('status').first().textContent())
        .toContain('now confirme');
      await expect.poll(() => page.locator('dd .badge').textContent()).toBe('confirme');
      // Its History: the confirmation on top, by whom, with the status it changed; then the creation.
      const versions = page.getByRole('region', { name: 'History' }).locator('tbody tr');
      await expect
        .poll(() => versions.allTextContents())
        .toEqual([
          expect.stringMatching(/^2.+Demo AdminConfirmStatus: brouillon → confirme$/),
          expect.stringMatching(/^1.+Demo AdminCreate.*Number: — → SO-/),
        ]);
    });

    it('creates a customer after fixing the validation error the API reports', async () => {
      const name = `Atelier Lumière ${mode}`;
      await page.goto(url('/records/customers'));
      await expect.poll(() => heading().textContent()).toBe('Customers');
      await act.press('link', 'New customer');
      await expect.poll(() => heading().textContent()).toBe('New customer');
      await act.fill('Name', name);
      await act.select('Customer type', 'company');
      await act.select('Active', 'true');
      await act.fill('Email', 'not-an-e-mail');
      await act.press('button', 'Create customer');
      const email = page.getByLabel(/^Email/);
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      // The message sits next to the field, is read with it, and the field has the focus.
      const described = await email.evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
      expect(described).toMatch(/e-?mail/i);
      expect(await email.evaluate((input) => input === document.activeElement)).toBe(true);
      await look('customer-invalid');

      await act.fill('Email', `compta.${mode}@lumiere.example`);
      await act.press('button', 'Create customer');
      await expect.poll(() => heading().textContent()).toBe(`Customer ${name}`);
      await look('customer');
    });

    it('invites a person in Settings → Users, changes the invitation’s roles and withdraws it; the last super-admin stays one', async () => {
      const email = `colleague-${mode}@demo.test`;
      const name = `Colleague ${mode}`;
      await page.goto(url('/settings/users'));
      await expect.poll(() => heading().textContent()).toBe('Users');
      const adminRow = page.getByRole('row', { name: /admin@demo\.test/ });
      await expect.poll(() => adminRow.textContent()).toContain('Active');
      // No password to choose for someone else: the person chooses theirs.
      expect(await page.getByLabel(/password/i).count()).toBe(0);
      await act.fill('E-mail', email);
      await act.fill('Name', name);
      await act.check('sales:reader');
      await act.press('button', 'Send invitation');
      const notices = () => page.getByRole('status').allTextContents();
      await expect
        .poll(notices)
        .toContainEqual(expect.stringContaining(`Invitation sent to ${email}`));
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => row.textContent()).toContain('Invited');
      expect(await row.textContent()).toContain('sales:reader');
      await eventually(`the invitation mailed to ${email}`, async () =>
        smtp.received.some((m) => m.to.includes(email)),
      );
      await look('users-invited');

      await act.press('button', `Roles of ${name}`);
      await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
      await act.check('crm:editor');
      await act.press('button', 'Save roles');
      // The cell, not the row: the row holds the dialog, and the dialog its checkboxes' names.
      const rolesOf = (r: typeof row) => r.locator('td[data-label="Roles"]').textContent();
      await expect.poll(() => rolesOf(row)).toContain('crm:editor');
      expect(await rolesOf(row)).toContain('sales:reader');
      await expect.poll(() => page.locator('dialog[open]').count()).toBe(0);
      expect(await row.locator('td[data-label="Status"]').textContent()).toBe('Invited');

      // Someone who is a member already: the portal's reason, in words.
      await act.fill('E-mail', 'admin@demo.test');
      await act.fill('Name', 'Demo Admin');
      await act.check('sales:reader');
      await act.press('button', 'Send invitation');
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('This person is already a member.');

      // The only super-admin cannot step down: said in the dialog, nothing changed.
      await act.press('button', 'Roles of Demo Admin');
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await act.uncheck('super-admin');
      await act.check('admin');
      await act.press('button', 'Save roles');
      await expect
        .poll(() => dialog.getByRole('alert').textContent())
        .toContain('A tenant keeps at least one super-admin.');
      expect(await dialog.getByRole('alert').textContent()).toContain('conflit');
      await look('users-last-super-admin');
      await act.press('button', 'Cancel');
      expect(await rolesOf(adminRow)).toBe('super-admin');

      await act.press('button', `Withdraw the invitation to ${email}`);
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await act.press('button', 'Withdraw');
      await expect
        .poll(notices)
        .toContainEqual(expect.stringContaining(`The invitation to ${email} is withdrawn`));
      await expect.poll(() => row.count()).toBe(0);
    });

    it('shows the users, portal access and a new sales order form (axe, screenshots)', async () => {
      for (const [pathname, title, name] of [
        ['/settings/users', 'Users', 'users'],
        ['/settings/portal-access', 'Portal access', 'portal-access'],
        ['/records/sales-orders/new', 'New sales order', 'sales-order-new'],
      ] as const) {
        await page.goto(url(pathname));
        await expect.poll(() => heading().textContent()).toBe(title);
        await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
        await look(name);
      }
      // The seeded admin is listed with its roles.
      await page.goto(url('/settings/users'));
      await expect
        .poll(() => page.getByRole('row', { name: /admin@demo\.test/ }).textContent())
        .toContain('admin');
    });

    it('keeps no token in localStorage, sessionStorage or a readable cookie, and runs no inline script', async () => {
      const stored = await page.evaluate(() => ({
        local: Object.entries(localStorage),
        session: Object.entries(sessionStorage),
        cookie: document.cookie,
      }));
      expect(stored.session).toEqual([]);
      // Only the remembered organisation's slug, a name rather than a credential.
      expect(stored.local).toEqual([['erp.console.tenant', 'demo']]);
      expect(stored.cookie).not.toContain('erp_refresh');
      expect(JSON.stringify(stored)).not.toMatch(/eyJ|service_live_|whsec_/);
      // And the page's CSP refuses a script written into it (the refusal it logs is this
      // probe's, not the console's: the run's error check at the end leaves it out).
      const before = errors.length;
      const inline = await tryInlineScript(page);
      expect(inline).toEqual({ violatedDirective: 'script-src-elem', ran: false });
      errors.splice(before);
    });

    it('logs out: the session is gone after a reload too', async () => {
      if (mode === 'mouse') {
        await page.setViewportSize({ width: 375, height: 800 });
        await act.press('button', 'Menu');
        await expect
          .poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible())
          .toBe(true);
        await look('menu-open');
      }
      await act.press('button', 'Log out');
      await expect.poll(() => heading().textContent()).toBe('Log in');
      await page.goto(url('/settings/webhooks'));
      await expect.poll(() => heading().textContent()).toBe('Log in');
      await page.setViewportSize({ width: 1280, height: 800 });
      // No script error, and nothing the CSP refused, in the whole run.
      expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    });
  });
}

describe('Settings → Users for an admin who is not a super-admin', () => {
  it('offers module roles only, leaves admins to super-admins, and shows the portal’s refusal', async () => {
    const superAdmin = await apiSession('admin@demo.test', platform.secrets.adminPassword);
    // An admin made as people are now: invited, accepting with their own password.
    const deputy = { email: 'deputy@demo.test', password: 'the deputy passphrase' };
    expect(
      (
        await superAdmin('POST', '/settings/users', {
          email: deputy.email,
          name: 'Deputy',
          roles: ['admin'],
        })
      ).status,
    ).toBe(201);
    const mail = await eventually('the deputy’s invitation', async () =>
      smtp.received.find((m) => m.to.includes(deputy.email)),
    );
    const accepted = await fetch(`${platform.portalUrl}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: linkIn(mail).token, password: deputy.password }),
    });
    expect(accepted.status).toBe(200);
    const clerk = await superAdmin('POST', '/settings/users', {
      email: 'clerk@demo.test',
      name: 'Clerk',
      roles: ['sales:reader'],
    });
    expect(clerk.status).toBe(201);

    const page = await openPage(browser, `${platform.portalUrl}/login`);
    const errors = watchBrowserErrors(page);
    const act = mouse(page);
    await act.fill('E-mail', deputy.email);
    await act.fill('Password', deputy.password);
    await act.press('button', 'Log in');
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).count()).toBe(1);
    await act.press('link', 'Users');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');
    const adminRow = page.getByRole('row', { name: /admin@demo\.test/ });
    await expect.poll(() => adminRow.textContent()).toContain('Managed by super-admins');
    expect(
      await page.getByRole('button', { name: /of Demo Admin|Remove Demo Admin/ }).count(),
    ).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'sales:reader' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: /^(super-)?admin$/ }).count()).toBe(0);
    await expectAccessible(page, 'users, as an admin');
    await screenshots(page, 'console-users-admin');

    // Meanwhile a super-admin makes the clerk's invitation an admin one: this page still
    // offers its roles; the portal refuses, and the dialog says why.
    const promoted = await superAdmin('PATCH', `/settings/users/${(await clerk.json()).id}`, {
      roles: ['admin'],
    });
    expect(promoted.status).toBe(200);
    await act.press('button', 'Roles of Clerk');
    await act.check('crm:reader');
    await act.press('button', 'Save roles');
    const alert = page.getByRole('dialog').getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toContain('Only a super-admin can grant, change or remove admin roles.');
    expect(await alert.textContent()).toContain('acces_refuse');
    await expectAccessible(page, 'users, refused');
    expect(errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await page.context().close();
  });
});

/** A super-admin's (or anyone's) API session in `demo`: `(method, path under /api/v1, body)`. */
async function apiSession(email: string, password: string) {
  const base = `${platform.portalUrl}/api/v1`;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${access_token}`,
        'x-tenant': 'demo',
        'content-type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** An API call with a key, as an integrator makes it (no Origin header: keys are not for browsers). */
async function callWithKey(key: string): Promise<number> {
  const response = await fetch(`${platform.portalUrl}/api/v1/me`, {
    headers: { authorization: `Bearer ${key}`, 'x-tenant-id': 'demo' },
  });
  return response.status;
}

/** A fresh draft sales order (through the JSON API), copied from a seeded one, for confirming. */
async function draftOrder(platform: Platform): Promise<string> {
  const base = `${platform.portalUrl}/api/v1`;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: platform.secrets.adminPassword }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const headers = {
    authorization: `Bearer ${access_token}`,
    'x-tenant': 'demo',
    'content-type': 'application/json',
  };
  const list = await fetch(`${base}/sales-orders?page_size=1`, { headers });
  const [order] = ((await list.json()) as { data: Record<string, unknown>[] }).data;
  const body = Object.fromEntries(
    ['customer_id', 'order_date', 'currency', 'lines'].map((field) => [field, order![field]]),
  );
  const created = await fetch(`${base}/sales-orders`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { number: string }).number;
}
