import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant();
});
afterAll(() => portal.tdb.close());

const loginAs = (
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => portal.post('/api/v1/auth/login', { email, password, ...extra }, headers).then(portal.json);

describe('login', () => {
  it('returns a token pair that authenticates', async () => {
    const res = await loginAs(tenant.adminEmail, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const me = await portal.json(
      await portal.request('/api/v1/me', { headers: session(res.body.access_token, tenant.slug) }),
    );
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(tenant.adminEmail);
    expect(me.body.rights).toContain('sales:write');
  });

  it('answers a wrong password and an unknown e-mail alike, in similar time', async () => {
    const timed = async (email: string) => {
      const start = performance.now();
      const res = await loginAs(email, 'wrong password!', {}, { 'x-forwarded-for': '10.9.9.9' });
      return { res, ms: performance.now() - start };
    };
    // A tenant of its own: 8 wrong passwords stay under the pair's throttle (login-throttle.test.ts).
    const subject = await portal.provisionTenant();
    // Warm both paths (the dummy hash is computed lazily).
    await timed('nobody@nowhere.test');
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i++) {
      const a = await timed(subject.adminEmail);
      const b = await timed(`nobody${i}@nowhere.test`);
      expect(a.res.status).toBe(401);
      expect(b.res.status).toBe(401);
      expect(a.res.body).toEqual(b.res.body);
      expect(a.res.body.code).toBe('identifiants_invalides');
      wrong.push(a.ms);
      unknown.push(b.ms);
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    // Both spend one argon2id verification; an unprotected unknown-e-mail path would be ~10x
    // faster. Wide bounds: CI runs every package's tests at once on two cores.
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.33);
    expect(median(unknown) / median(wrong)).toBeLessThan(3);
  });

  it('answers a legacy SSO URL (set before OpenID settings) to members, not to super-admins', async () => {
    const sso = await portal.provisionTenant();
    const member = await portal.addUser(sso, ['admin']);
    await portal.tdb.db
      .insertInto('sso_settings')
      .values({
        tenant_id: sso.id,
        legacy_authorize_url: 'https://idp.example/authorize',
        enforced: true,
      })
      .execute();
    const res = await loginAs(member.email, PASSWORD, { tenant: sso.slug });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'sso_requis',
      params: { authorize_url: 'https://idp.example/authorize' },
    });
    // The provisioned first user is its super-admin: the password fallback.
    expect((await loginAs(sso.adminEmail, PASSWORD, { tenant: sso.slug })).status).toBe(200);
  });

  it('refuses a tenant the user is not a member of', async () => {
    const other = await portal.provisionTenant();
    const res = await loginAs(tenant.adminEmail, PASSWORD, { tenant: other.slug });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('tenant_invalide');
  });

  it('validates the body', async () => {
    const res = await loginAs('not-an-email', '');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    expect(res.body.params.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'password',
    ]);
  });
});

describe('refresh and logout', () => {
  it('rotates refresh tokens; reusing one revokes the whole family', async () => {
    const first = await portal.login(tenant.adminEmail);
    const second = await portal
      .post('/api/v1/auth/refresh', { refresh_token: first.refresh_token })
      .then(portal.json);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);

    const replay = await portal
      .post('/api/v1/auth/refresh', { refresh_token: first.refresh_token })
      .then(portal.json);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('jeton_invalide');
    // The thief's replay also killed the legitimate holder's newer token.
    const after = await portal
      .post('/api/v1/auth/refresh', { refresh_token: second.body.refresh_token })
      .then(portal.json);
    expect(after.status).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const pair = await portal.login(tenant.adminEmail);
    expect(
      (await portal.post('/api/v1/auth/logout', { refresh_token: pair.refresh_token })).status,
    ).toBe(204);
    const res = await portal
      .post('/api/v1/auth/refresh', { refresh_token: pair.refresh_token })
      .then(portal.json);
    expect(res.body.code).toBe('jeton_invalide');
  });

  it('refuses expired access tokens', async () => {
    const pair = await portal.login(tenant.adminEmail);
    portal.clock.offsetMs = 16 * 60 * 1000;
    try {
      const res = await portal.json(
        await portal.request('/api/v1/me', { headers: session(pair.access_token) }),
      );
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('jeton_invalide');
    } finally {
      portal.clock.offsetMs = 0;
    }
  });
});
