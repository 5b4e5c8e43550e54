import { randomBytes } from 'node:crypto';
import {
  generatePasswordLinkToken,
  hashPasswordLinkToken,
  PASSWORD_LINK_TTL_SECONDS,
  type PasswordLinkPurpose,
} from '@erp/contract';
import { sql } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';
import { PASSWORD_RESET_LIMITS } from './password-links';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant();
});
afterAll(() => portal.tdb.close());

const NEW_PASSWORD = 'a brand new passphrase';
let addressCounter = 0;
/** A client address of its own, so one test's requests do not spend another's budget. */
const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

const askReset = (email: string, address = freshAddress()) =>
  portal
    .post('/api/v1/auth/password-reset', { email }, { 'x-forwarded-for': address })
    .then(portal.json);
const confirm = (token: string, password = NEW_PASSWORD) =>
  portal.post('/api/v1/auth/password-reset/confirm', { token, password }).then(portal.json);
const loginStatus = async (email: string, password: string) =>
  (
    await portal.post(
      '/api/v1/auth/login',
      { email, password },
      { 'x-forwarded-for': freshAddress() },
    )
  ).status;

/** Mints a link as the worker does (its token, the hash stored), for a user of the test's. */
async function issueLink(
  userId: string,
  purpose: PasswordLinkPurpose = 'password_reset',
  tenantId: string | null = null,
): Promise<string> {
  const token = generatePasswordLinkToken();
  await portal.tdb.db
    .insertInto('password_tokens')
    .values({
      user_id: userId,
      purpose,
      tenant_id: tenantId,
      token_hash: hashPasswordLinkToken(token),
      expires_at: new Date(Date.now() + PASSWORD_LINK_TTL_SECONDS[purpose] * 1000),
    })
    .execute();
  return token;
}

async function queuedJobs(task: string) {
  const { rows } = await sql<{ payload: Record<string, unknown> }>`
    SELECT j.payload FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE t.identifier = ${task} ORDER BY j.id
  `.execute(portal.tdb.db);
  return rows.map((r) => r.payload);
}

async function newMember() {
  const member = await portal.addUser(tenant, ['sales:reader']);
  return member;
}

describe('POST /api/v1/auth/password-reset', () => {
  it('answers 202 with one body for a known and an unknown e-mail, and queues the same job', async () => {
    const member = await newMember();
    const unknown = `nobody-${randomBytes(4).toString('hex')}@nowhere.test`;
    const known = await askReset(member.email.toUpperCase(), '198.51.100.7');
    const stranger = await askReset(unknown, '198.51.100.8');
    expect(known.status).toBe(202);
    expect(stranger.status).toBe(202);
    expect(known.body).toEqual({ expires_in: 1800 });
    expect(stranger.body).toEqual(known.body);
    expect(known.headers.get('cache-control')).toBe('no-store');
    expect([...known.headers.keys()].sort()).toEqual([...stranger.headers.keys()].sort());
    // The portal does not look the e-mail up: the worker does, and mails only a real account.
    const jobs = await queuedJobs('mail_password_reset');
    // With who asked, for the audit row the worker writes if an account matches.
    expect(jobs.slice(-2)).toEqual([
      { email: member.email.toLowerCase(), address: '198.51.100.7' },
      { email: unknown, address: '198.51.100.8' },
    ]);
  });

  it('takes the same time for a known and an unknown e-mail (150 interleaved pairs)', async () => {
    const PAIRS = 150;
    const run = randomBytes(3).toString('hex');
    // Accounts straight in the table: only their e-mails matter here.
    await sql`
      INSERT INTO users (email, name)
      SELECT 'timing-' || i || '-' || ${run}::text || '@known.test', 'Timing' FROM generate_series(1, ${PAIRS}::int) i
    `.execute(portal.tdb.db);
    const timed = async (email: string) => {
      const start = performance.now();
      const res = await askReset(email);
      const ms = performance.now() - start;
      expect(res.status).toBe(202);
      return ms;
    };
    for (let i = 0; i < 10; i++) await timed(`warm-${i}-${run}@unknown.test`);
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    const differences: number[] = [];
    for (let i = 1; i <= PAIRS; i++) {
      // Each pair runs back to back, in alternating order, so the machine's changing load
      // falls on both alike and the pair's difference cancels it.
      const known = () => timed(`timing-${i}-${run}@known.test`);
      const unknown = () => timed(`timing-${i}-${run}@unknown.test`);
      let k: number;
      let u: number;
      if (i % 2) {
        k = await known();
        u = await unknown();
      } else {
        u = await unknown();
        k = await known();
      }
      knownMs.push(k);
      unknownMs.push(u);
      differences.push(k - u);
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const quantile = (xs: number[], p: number) => sorted(xs)[Math.floor(p * (xs.length - 1))]!;
    const iqr = (xs: number[]) => quantile(xs, 0.75) - quantile(xs, 0.25);
    const medianDifference = quantile(differences, 0.5);
    const knownSlower = differences.filter((d) => d > 0).length;
    const spread = iqr([...knownMs, ...unknownMs]);
    console.log(
      `password reset timing over ${PAIRS} pairs: known median ${quantile(knownMs, 0.5).toFixed(2)} ms ` +
        `(IQR ${iqr(knownMs).toFixed(2)}), unknown median ${quantile(unknownMs, 0.5).toFixed(2)} ms ` +
        `(IQR ${iqr(unknownMs).toFixed(2)}), median paired difference ${medianDifference.toFixed(2)} ms, ` +
        `pooled IQR ${spread.toFixed(2)} ms, known slower in ${knownSlower} of ${PAIRS} pairs`,
    );
    // Small against the noise: the median of the paired differences within 0.4 of the pooled
    // interquartile range (noise alone moves it by ~0.1 of it).
    expect(Math.abs(medianDifference)).toBeLessThanOrEqual(0.4 * spread + 0.05);
    // And no side slower more often than chance allows (sign test, two-sided p ≈ 0.0005). A
    // portal that looked the e-mail up and queued a job only for real accounts (1.1-1.7 ms more
    // for them, less than the noise's spread) failed both: slower in 112 and 128 of 150 pairs.
    expect(Math.abs(knownSlower - PAIRS / 2)).toBeLessThanOrEqual(3.5 * Math.sqrt(PAIRS / 4));
    // 300 requests: ~6 s alone, over 20 s with every package's tests sharing two cores.
  }, 120_000);

  it('throttles per e-mail: the sixth request in an hour is 429 with Retry-After, from any address', async () => {
    const email = `victim-${randomBytes(4).toString('hex')}@nowhere.test`;
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perEmail; i++) {
      expect((await askReset(email)).status).toBe(202);
    }
    const refused = await askReset(email);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('limite_depassee');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(refused.body.params.retry_after).toBe(retryAfter);
    // Another e-mail from the same address is not affected.
    expect((await askReset(`other-${email}`)).status).toBe(202);
  });

  it('throttles per client address across e-mails, IPv6 by its /64', async () => {
    const address = '2001:db8:77:1::1';
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perAddress; i++) {
      expect((await askReset(`spray-${i}@nowhere.test`, address)).status).toBe(202);
    }
    const refused = await askReset('spray-last@nowhere.test', '2001:db8:77:1::ffff');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('limite_depassee');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A refused request queued nothing.
    expect(await queuedJobs('mail_password_reset')).not.toContainEqual({
      email: 'spray-last@nowhere.test',
    });
  });

  it('refuses a body without a valid e-mail', async () => {
    const res = await askReset('not an e-mail');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
  });
});

describe('POST /api/v1/auth/password-reset/confirm', () => {
  it('sets the password, ends every session, and works once', async () => {
    const member = await newMember();
    const sessionBefore = await portal.login(member.email);
    const token = await issueLink(member.id);
    const other = await issueLink(member.id);

    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: member.email, purpose: 'password_reset', tenant: null });
    expect(res.headers.get('cache-control')).toBe('no-store');

    expect(await loginStatus(member.email, NEW_PASSWORD)).toBe(200);
    expect(await loginStatus(member.email, PASSWORD)).toBe(401);
    // The refresh token issued before the reset is revoked.
    const refreshed = await portal
      .post('/api/v1/auth/refresh', { refresh_token: sessionBefore.refresh_token })
      .then(portal.json);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.code).toBe('jeton_invalide');

    const again = await confirm(token, 'yet another passphrase');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'used' } });
    expect(await loginStatus(member.email, 'yet another passphrase')).toBe(401);
    // The account's other link was issued for the old password: it died with it.
    const otherUse = await confirm(other);
    expect(otherUse.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'used' } });
  });

  it('refuses an expired link (30 minutes) and an unknown token, without touching the password', async () => {
    const member = await newMember();
    const token = await issueLink(member.id);
    portal.clock.offsetMs = 30 * 60_000 + 1000;
    try {
      const expired = await confirm(token);
      expect(expired.status).toBe(400);
      expect(expired.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'expired' } });
    } finally {
      portal.clock.offsetMs = 0;
    }
    expect(await loginStatus(member.email, PASSWORD)).toBe(200);
    const unknown = await confirm(generatePasswordLinkToken());
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'unknown' } });
  });

  it('refuses a weak password with requete_invalide and keeps the link usable', async () => {
    const member = await newMember();
    const token = await issueLink(member.id);
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('requete_invalide');
    expect((await confirm(token)).status).toBe(200);
  });

  it('of two concurrent uses of one link, exactly one sets the password', async () => {
    const member = await newMember();
    const token = await issueLink(member.id);
    const results = await Promise.all([
      confirm(token, 'first concurrent passphrase'),
      confirm(token, 'second concurrent passphrase'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = results[0]!.status === 200 ? 'first' : 'second';
    expect(await loginStatus(member.email, `${winner} concurrent passphrase`)).toBe(200);
  });

  it('lets a new customer whose first password was lost set one (an invitation link names its tenant)', async () => {
    // Provisioned by the platform with a generated first password nobody kept.
    const slug = `lost-${randomBytes(3).toString('hex')}`;
    const provisioned = await portal
      .post(
        '/api/v1/internal/tenants',
        {
          slug,
          name: 'Lost Ltd',
          plan_code: 'enterprise',
          admin: { email: `owner@${slug}.test`, name: 'Owner' },
        },
        { 'x-api-key': 'internal-test-key-0123456789abcdef' },
      )
      .then(portal.json);
    expect(provisioned.status).toBe(201);
    expect((await askReset(`owner@${slug}.test`)).status).toBe(202);
    expect(await queuedJobs('mail_password_reset')).toContainEqual({
      email: `owner@${slug}.test`,
      address: expect.any(String),
    });
    const token = await issueLink(provisioned.body.admin.id);
    expect((await confirm(token)).status).toBe(200);
    expect(await loginStatus(`owner@${slug}.test`, NEW_PASSWORD)).toBe(200);
  });
});

describe('invitations (POST /api/v1/settings/users): a mail queued with the invitation', () => {
  it('queues the invitation’s mail in its transaction, and touches no account', async () => {
    const admin = await portal.login(tenant.adminEmail);
    const email = `invitee-${randomBytes(4).toString('hex')}@${tenant.slug}.test`;
    const res = await portal
      .post(
        '/api/v1/settings/users',
        { email, name: 'Invitee', roles: ['sales:reader'] },
        session(admin.access_token, tenant.slug),
      )
      .then(portal.json);
    expect(res.status).toBe(201);
    expect(await queuedJobs('mail_invitation')).toContainEqual({ invitation_id: res.body.id });
    // No account, so nobody can log in as the invitee, nor use a reset link for them.
    expect(await loginStatus(email, PASSWORD)).toBe(401);
    const token = await portal.invitationLink(res.body.id);
    // An invitation's token is not a reset link.
    expect((await confirm(token)).body).toMatchObject({
      code: 'lien_invalide',
      params: { reason: 'unknown' },
    });
    const accepted = await portal
      .post('/api/v1/auth/invitations/accept', { token, password: NEW_PASSWORD })
      .then(portal.json);
    expect(accepted.status).toBe(200);
    expect(await loginStatus(email, NEW_PASSWORD)).toBe(200);
  });

  it('mails every inviting tenant, whether or not the e-mail has an account', async () => {
    const other = await portal.provisionTenant();
    const otherAdmin = await portal.login(other.adminEmail);
    const admin = await portal.login(tenant.adminEmail);
    const member = await portal.addUser(await portal.provisionTenant(), ['sales:reader']);
    const emails = [`twice-${randomBytes(4).toString('hex')}@nowhere.test`, member.email];
    for (const email of emails) {
      const ids = [];
      for (const [slug, token] of [
        [tenant.slug, admin.access_token],
        [other.slug, otherAdmin.access_token],
      ] as const) {
        const res = await portal
          .post(
            '/api/v1/settings/users',
            { email, name: 'Twice', roles: ['sales:reader'] },
            session(token, slug),
          )
          .then(portal.json);
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      const queued = (await queuedJobs('mail_invitation')).map((p) => p.invitation_id);
      expect(queued).toEqual(expect.arrayContaining(ids));
    }
  });

  it('an expired link is refused, and a later invitation mails a live one', async () => {
    const admin = await portal.login(tenant.adminEmail);
    const email = `late-${randomBytes(4).toString('hex')}@nowhere.test`;
    const invite = () =>
      portal
        .post(
          '/api/v1/settings/users',
          { email, name: 'Late', roles: ['crm:reader'] },
          session(admin.access_token, tenant.slug),
        )
        .then(portal.json);
    const res = await invite();
    const token = await portal.invitationLink(res.body.id);
    await portal.tdb.pool.query(
      "UPDATE invitations SET token_expires_at = now() - interval '1 second' WHERE id = $1",
      [res.body.id],
    );
    const expired = await portal
      .post('/api/v1/auth/invitations/lookup', { token })
      .then(portal.json);
    expect(expired.body).toMatchObject({ code: 'lien_invalide', params: { reason: 'expired' } });
    expect((await invite()).body.id).toBe(res.body.id);
    const fresh = await portal.invitationLink(res.body.id);
    const accepted = await portal
      .post('/api/v1/auth/invitations/accept', { token: fresh, password: NEW_PASSWORD })
      .then(portal.json);
    expect(accepted.status).toBe(200);
  });
});
