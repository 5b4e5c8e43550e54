/**
 * Password reset and invitations across the real processes (SPEC §13): the portal answers and
 * queues, the worker mints the link and mails it through a real SMTP server running here, the
 * link opens the console, and the portal consumes it once.
 */
import { createHash } from 'node:crypto';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The worker's own SMTP capture (a real `smtp-server`): one definition for both suites.
import { type CapturedMail, linkIn, startSmtpCapture } from '../../apps/worker/test/smtp-capture';
import { eventually, type Platform, startPlatform } from './platform';
import { stripePurchase } from './stripe-events';

const MAIL_FROM = 'ERP <no-reply@e2e.test>';
const NEW_PASSWORD = 'a passphrase of my own';

let platform: Platform;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture({ user: 'relay', pass: 'relay-password-e2e' });
  platform = await startPlatform({ worker: { SMTP_URL: smtp.url, MAIL_FROM } });
});
afterAll(async () => {
  await platform?.close();
  await smtp?.close();
});

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${platform.portalUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
};
const login = (email: string, password: string, tenant?: string) =>
  post('/api/v1/auth/login', { email, password, ...(tenant ? { tenant } : {}) });
const askReset = (email: string) => post('/api/v1/auth/password-reset', { email });
const confirm = (token: string, password = NEW_PASSWORD) =>
  post('/api/v1/auth/password-reset/confirm', { token, password });

/** The next message to `email` after the first `seen` ones. */
const nextMail = (email: string, seen = 0): Promise<CapturedMail> =>
  eventually(
    `a mail to ${email}`,
    async () => smtp.received.filter((m) => m.to.includes(email))[seen],
  );

/** Until graphile-worker's queue holds no mail job (the worker ran them all). */
const mailJobsDone = () =>
  eventually('the mail jobs to run', async () => {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier IN ('mail_password_reset', 'mail_invitation')
    `.execute(platform.db.db);
    return rows[0]!.n === 0;
  });

describe('an invitation from Settings → Users', () => {
  const invitee = 'new.colleague@demo.test';
  const bearer = (token: string, tenant: string) => ({
    authorization: `Bearer ${token}`,
    'x-tenant': tenant,
  });
  const lookup = (token: string) => post('/api/v1/auth/invitations/lookup', { token });
  const accept = (token: string, password = NEW_PASSWORD, name?: string) =>
    post('/api/v1/auth/invitations/accept', { token, password, ...(name ? { name } : {}) });
  const join = (token: string, accessToken: string) =>
    post('/api/v1/auth/invitations/join', { token }, { authorization: `Bearer ${accessToken}` });
  const me = async (accessToken: string, tenant: string) =>
    (
      await fetch(`${platform.portalUrl}/api/v1/me`, { headers: bearer(accessToken, tenant) })
    ).json();

  it('mails a new person a console link: they read it, choose their name and password, and log in; it works once', async () => {
    const admin = await login('admin@demo.test', platform.secrets.adminPassword);
    expect(admin.status).toBe(200);
    const added = await post(
      '/api/v1/settings/users',
      { email: invitee, name: 'New Colleague', roles: ['sales:editor'] },
      bearer(admin.body.access_token, 'demo'),
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ email: invitee, status: 'invited' });

    const mail = await nextMail(invitee);
    expect(mail.user).toBe('relay');
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.subject).toMatch(/invited you to Demo SARL on ERP/);
    expect(mail.text).toContain('within 7 days');
    expect(mail.html).toContain('<a href="');
    const { url, token } = linkIn(mail);
    expect(url.origin).toBe(platform.portalUrl);
    expect(url.pathname).toBe('/invitation');

    const read = await lookup(token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      email: invitee,
      name: 'New Colleague',
      tenant: { slug: 'demo', name: 'Demo SARL' },
      account: 'new',
    });
    const days = (Date.parse(read.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // A reset's endpoint does not take an invitation's link.
    expect((await confirm(token)).body).toMatchObject({ code: 'lien_invalide' });
    // Until accepted, the invitation opens nothing.
    expect((await login(invitee, NEW_PASSWORD)).status).toBe(401);

    const accepted = await accept(token, NEW_PASSWORD, 'Nina Colleague');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ email: invitee, tenant: 'demo' });
    const session = await login(invitee, NEW_PASSWORD, 'demo');
    expect(session.status).toBe(200);
    const mine = await me(session.body.access_token, 'demo');
    expect(mine.user.name).toBe('Nina Colleague');
    expect(mine.memberships).toEqual([
      expect.objectContaining({
        roles: ['sales:editor'],
        tenant: expect.objectContaining({ slug: 'demo' }),
      }),
    ]);

    const again = await accept(token, 'someone else’s passphrase');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'unknown' } });
    expect((await lookup(token)).body).toMatchObject({ code: 'lien_invalide' });
    expect(platform.output.join('\n')).not.toContain(token);
  });

  it('invites someone with an account in another tenant: the link says so, a new password is refused, they join by signing in', async () => {
    const boss = { email: 'boss@acme.test', password: 'the boss of acme passphrase' };
    const provisioned = await post(
      '/api/v1/internal/tenants',
      {
        slug: 'acme',
        name: 'Acme Ltd',
        plan_code: 'business',
        admin: { ...boss, name: 'Acme Boss' },
      },
      { 'x-api-key': platform.secrets.internalApiKey },
    );
    expect(provisioned.status, JSON.stringify(provisioned.body)).toBe(201);
    const bossSession = await login(boss.email, boss.password, 'acme');
    expect(bossSession.status).toBe(200);
    const seen = smtp.received.filter((m) => m.to.includes(invitee)).length;
    const invited = await post(
      '/api/v1/settings/users',
      { email: invitee, name: 'Name Acme typed', roles: ['crm:reader'] },
      bearer(bossSession.body.access_token, 'acme'),
    );
    expect(invited.status).toBe(201);
    // The same answer as for someone new: nothing says the e-mail has an account.
    expect(Object.keys(invited.body).sort()).toEqual([
      'created_at',
      'email',
      'id',
      'name',
      'roles',
      'status',
    ]);
    expect(invited.body).toMatchObject({ name: 'Name Acme typed', status: 'invited' });

    const { token } = linkIn(await nextMail(invitee, seen));
    expect((await lookup(token)).body).toMatchObject({
      email: invitee,
      tenant: { slug: 'acme', name: 'Acme Ltd' },
      account: 'existing',
    });
    // Choosing a password is for new accounts: the link cannot replace this one's.
    const refused = await accept(token, 'a password to take it over');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflit', params: { reason: 'account_exists' } });
    expect((await login(invitee, 'a password to take it over')).status).toBe(401);

    // Only the invited account's session accepts.
    const wrong = await join(token, bossSession.body.access_token);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'acces_refuse', params: { required: 'invitee' } });
    const session = await login(invitee, NEW_PASSWORD);
    expect((await join(token, session.body.access_token)).body).toEqual({
      email: invitee,
      tenant: 'acme',
    });
    const inAcme = await login(invitee, NEW_PASSWORD, 'acme');
    expect(inAcme.status).toBe(200);
    const mine = await me(inAcme.body.access_token, 'acme');
    // Acme's admin named nobody: the account keeps the name its person chose.
    expect(mine.user.name).toBe('Nina Colleague');
    expect(mine.tenant.slug).toBe('acme');
    expect(mine.memberships.map((m: { tenant: { slug: string } }) => m.tenant.slug).sort()).toEqual(
      ['acme', 'demo'],
    );
    expect((await join(token, session.body.access_token)).body).toMatchObject({
      code: 'lien_invalide',
    });
  });
});

describe('a password reset', () => {
  const email = 'new.colleague@demo.test';

  it('answers an unknown e-mail exactly as a known one, and mails only the known one', async () => {
    const before = smtp.received.length;
    const unknown = await askReset('nobody.here@demo.test');
    const known = await askReset(email);
    for (const res of [unknown, known]) {
      expect(res.status).toBe(202);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ expires_in: 1800 });
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    await mailJobsDone();
    const sent = smtp.received.slice(before);
    expect(sent.map((m) => m.to)).toEqual([[email]]);
  });

  it('its link works once and ends the sessions opened before it', async () => {
    const before = await login(email, NEW_PASSWORD);
    expect(before.status).toBe(200);
    const seen = smtp.received.filter((m) => m.to.includes(email)).length;
    expect((await askReset(email)).status).toBe(202);
    const mail = await nextMail(email, seen);
    expect(mail.subject).toBe('Reset your ERP password');
    const { url, token } = linkIn(mail);
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.portalUrl}/reset-password`);

    expect((await confirm(token, 'the reset passphrase')).status).toBe(200);
    expect((await login(email, 'the reset passphrase')).status).toBe(200);
    expect((await login(email, NEW_PASSWORD)).status).toBe(401);
    const refreshed = await post('/api/v1/auth/refresh', {
      refresh_token: before.body.refresh_token,
    });
    expect(refreshed.status).toBe(401);
    const second = await confirm(token, 'another passphrase!');
    expect(second.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'used' } });
  });

  it('refuses a link whose 30 minutes have passed', async () => {
    const seen = smtp.received.filter((m) => m.to.includes(email)).length;
    expect((await askReset(email)).status).toBe(202);
    const { token } = linkIn(await nextMail(email, seen));
    // Half an hour later, as far as the stored link is concerned.
    const hash = createHash('sha256').update(token).digest();
    await sql`
      UPDATE password_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${hash}
    `.execute(platform.db.db);
    const expired = await confirm(token);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'expired' } });
    expect((await login(email, 'the reset passphrase')).status).toBe(200);
  });

  it('lets a new customer who never claimed their first password set one', async () => {
    const owner = 'owner@lost-password.test';
    const { checkout: sent } = await stripePurchase(
      platform.landingUrl,
      platform.secrets.paymentSecret,
      {
        eventId: 'evt_e2e_lost_password',
        sessionId: 'cs_test_lost_password',
        subscriptionId: 'sub_lost_password',
        slug: 'lost-password',
        company: 'Lost Password Ltd',
        planCode: 'business',
        email: owner,
        name: 'Olga Owner',
      },
    );
    expect(sent.response.status).toBe(200);
    await eventually('the tenant to be provisioned', async () => {
      const row = await platform.db.db
        .selectFrom('tenants')
        .select('id')
        .where('slug', '=', 'lost-password')
        .executeTakeFirst();
      return row !== undefined;
    });
    // The generated first password was never claimed from landing: reset like anyone else.
    expect((await askReset(owner)).status).toBe(202);
    const { token } = linkIn(await nextMail(owner));
    expect((await confirm(token)).status).toBe(200);
    expect((await login(owner, NEW_PASSWORD, 'lost-password')).status).toBe(200);
  });

  it('is throttled per e-mail: the sixth request in an hour is 429 with Retry-After', async () => {
    const target = 'flooded@demo.test';
    for (let i = 0; i < 5; i++) expect((await askReset(target)).status).toBe(202);
    const refused = await askReset(target);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('limite_depassee');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
