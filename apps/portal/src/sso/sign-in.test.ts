import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider';
import {
  CALLBACK_URL,
  configureSso,
  cookieFrom,
  followProvider,
  sessionFromCallback,
  signIn,
} from '../../test/sso-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let provider: TestOidcProvider;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let domain: string;

beforeAll(async () => {
  portal = await createTestPortal({ SSO_ALLOW_INSECURE_ISSUERS: 'true' });
  provider = await startOidcProvider([CALLBACK_URL]);
  tenant = await portal.provisionTenant();
  domain = `${tenant.slug}.example`;
  await configureSso(portal, tenant, provider, {
    allowed_domains: [domain],
    default_role: 'sales:editor',
  });
});
afterAll(async () => {
  await provider.close();
  await portal.tdb.close();
});

/** A person the provider vouches for, at the tenant's allowed domain unless told otherwise. */
function person(overrides: { email?: string; email_verified?: boolean } = {}) {
  const id = randomBytes(4).toString('hex');
  return {
    sub: `sub-${id}`,
    email: overrides.email ?? `p-${id}@${domain}`,
    email_verified: overrides.email_verified ?? true,
    name: `Person ${id}`,
  };
}

const json = async (res: Response) => portal.json(res);

describe('single sign-on against a real OpenID provider', () => {
  it('signs an existing member in: the refresh cookie as a console login sets it, then return_to', async () => {
    const member = await portal.addUser(tenant, ['admin']);
    const { start, authorizeUrl, callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: { ...person(), email: member.email },
      returnTo: '/records/sales-orders?status=eq.brouillon',
    });
    // The authorization request: code flow with PKCE (S256), state and nonce.
    expect(authorizeUrl.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'erp-portal',
      redirect_uri: CALLBACK_URL,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const name of ['state', 'nonce', 'code_challenge'])
      expect(authorizeUrl.searchParams.get(name)?.length).toBeGreaterThanOrEqual(43);
    expect(start.headers.getSetCookie().find((c) => c.startsWith('erp_sso='))).toMatch(
      /HttpOnly; Secure; SameSite=Lax/,
    );

    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/records/sales-orders?status=eq.brouillon');
    expect(callback.headers.get('cache-control')).toBe('no-store');
    const cookie = callback.headers.getSetCookie().find((c) => c.startsWith('erp_refresh='));
    expect(cookie).toMatch(
      /^erp_refresh=rt_[\w-]+; Max-Age=2592000; Path=\/api\/v1\/auth\/refresh; HttpOnly; Secure; SameSite=Strict$/,
    );
    const { me } = await sessionFromCallback(portal, callback, tenant.slug);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(member.email);
    expect(me.body.rights).toContain('webhooks');
  });

  it('makes a person of an allowed domain a member just in time, with the default role, in this tenant only', async () => {
    const identity = person();
    const { callback } = await signIn(portal, provider, { tenant: tenant.slug, identity });
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/');
    const { token, me } = await sessionFromCallback(portal, callback, tenant.slug);
    expect(me.body.user).toMatchObject({ email: identity.email, name: identity.name });
    expect(me.body.memberships).toEqual([
      expect.objectContaining({
        roles: ['sales:editor'],
        tenant: expect.objectContaining({ slug: tenant.slug }),
      }),
    ]);
    expect(me.body.rights).toEqual(['sales:read', 'sales:write']);
    const user = await portal.tdb.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', identity.email)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    // Signing in again finds the same user and membership.
    const again = await signIn(portal, provider, { tenant: tenant.slug, identity });
    expect((await sessionFromCallback(portal, again.callback, tenant.slug)).me.body.user.id).toBe(
      me.body.user.id,
    );
    expect(token).toBeTruthy();
  });

  it('limits the session to the tenant whose provider vouched for the person', async () => {
    // The same person is also a member of another tenant, with a password.
    const other = await portal.provisionTenant();
    const member = await portal.addUser(other, ['admin']);
    await portal.tdb.db
      .insertInto('memberships')
      .values({ tenant_id: tenant.id, user_id: member.id, roles: ['sales:reader'] })
      .execute();
    const { callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: { ...person(), email: member.email },
    });
    const { token, me } = await sessionFromCallback(portal, callback);
    // Without a tenant, the session shows only this tenant.
    expect(me.body.memberships.map((m: { tenant: { slug: string } }) => m.tenant.slug)).toEqual([
      tenant.slug,
    ]);
    const elsewhere = await json(
      await portal.request('/api/v1/me', { headers: session(token, other.slug) }),
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('tenant_invalide');
  });

  it('refuses a person outside the allowed domains who is not a member (acces_refuse)', async () => {
    const identity = person({ email: `x-${randomBytes(3).toString('hex')}@elsewhere.example` });
    const { callback } = await signIn(portal, provider, { tenant: tenant.slug, identity });
    expect(callback.status).toBe(403);
    const body = await callback.json();
    expect(body).toMatchObject({ code: 'acces_refuse', params: { required: 'allowed_domain' } });
    expect(cookieFrom(callback, 'erp_refresh')).toBeUndefined();
    const users = await portal.tdb.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', identity.email)
      .execute();
    expect(users).toEqual([]);
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const { callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: person({ email_verified: false }),
    });
    expect(callback.status).toBe(401);
    expect(await callback.json()).toMatchObject({
      code: 'jeton_sso_invalide',
      params: { reason: 'email_not_verified' },
    });
  });

  it('takes a state once: a replayed callback is etat_sso_invalide, and opens no second session', async () => {
    const { callback, callbackUrl, stateCookie } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: person(),
    });
    expect(callback.status).toBe(303);
    const replay = await portal.request(callbackUrl.href, {
      headers: { cookie: `erp_sso=${stateCookie}` },
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      code: 'etat_sso_invalide',
      params: { reason: 'unknown' },
    });
    expect(cookieFrom(replay, 'erp_refresh')).toBeUndefined();
  });

  it('refuses a callback whose state this browser did not start (login CSRF), or without state', async () => {
    // The attacker signs in at the provider as themselves and hands their callback URL to a
    // victim, whose browser holds the cookie of a sign-in of its own.
    provider.control.nextIdentity = person();
    const attacker = await portal.request(`/api/v1/auth/sso/start?tenant=${tenant.slug}`);
    const attackerCallback = await followProvider(attacker.headers.get('location')!);
    const victim = await portal.request(`/api/v1/auth/sso/start?tenant=${tenant.slug}`);
    const crossed = await portal.request(attackerCallback.href, {
      headers: { cookie: `erp_sso=${cookieFrom(victim, 'erp_sso')}` },
    });
    expect(crossed.status).toBe(400);
    expect(await crossed.json()).toMatchObject({
      code: 'etat_sso_invalide',
      params: { reason: 'other_browser' },
    });
    const missing = await portal.request('/api/v1/auth/sso/callback?code=abc');
    expect(missing.status).toBe(400);
    expect((await json(missing)).body.params.reason).toBe('missing');
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    const { callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: person(),
      tamper: (url) =>
        url.searchParams.set('nonce', 'a-nonce-the-portal-never-issued-000000000000'),
    });
    expect(callback.status).toBe(401);
    expect(await callback.json()).toMatchObject({
      code: 'jeton_sso_invalide',
      params: { reason: 'nonce' },
    });
    expect(cookieFrom(callback, 'erp_refresh')).toBeUndefined();
  });

  it('refuses an ID token signed by a key the provider does not publish', async () => {
    await provider.publishForeignKey();
    try {
      const { callback } = await signIn(portal, provider, {
        tenant: tenant.slug,
        identity: person(),
      });
      expect(callback.status).toBe(401);
      expect(await callback.json()).toMatchObject({
        code: 'jeton_sso_invalide',
        params: { reason: 'signature' },
      });
    } finally {
      provider.control.jwksOverride = undefined;
    }
  });

  it('refuses an expired ID token', async () => {
    provider.control.idTokenTtl = 60;
    try {
      const { callback } = await signIn(portal, provider, {
        tenant: tenant.slug,
        identity: person(),
        // The portal's clock moves past the token's life (and its 30 s tolerance), not the state's.
        beforeCallback: async () => {
          portal.clock.offsetMs = 120_000;
        },
      });
      expect(callback.status).toBe(401);
      expect(await callback.json()).toMatchObject({
        code: 'jeton_sso_invalide',
        params: { reason: 'expired' },
      });
    } finally {
      provider.control.idTokenTtl = 600;
      portal.clock.offsetMs = 0;
    }
  });

  it('refuses an expired state (ten minutes)', async () => {
    try {
      const { callback } = await signIn(portal, provider, {
        tenant: tenant.slug,
        identity: person(),
        beforeCallback: async () => {
          portal.clock.offsetMs = 601_000;
        },
      });
      expect(callback.status).toBe(400);
      expect((await json(callback)).body.params.reason).toBe('expired');
    } finally {
      portal.clock.offsetMs = 0;
    }
  });

  it('follows the provider when it rotates its keys between two sign-ins', async () => {
    const identity = person();
    const first = await signIn(portal, provider, { tenant: tenant.slug, identity });
    expect(first.callback.status).toBe(303);
    const before = provider.signingKid();
    await provider.rotateKeys(); // the old key is no longer published
    expect(provider.signingKid()).not.toBe(before);
    const second = await signIn(portal, provider, { tenant: tenant.slug, identity });
    expect(second.callback.status).toBe(303);
    expect((await sessionFromCallback(portal, second.callback, tenant.slug)).me.status).toBe(200);
  });

  it('refuses a return_to off the console’s origin, before anything is stored', async () => {
    const states = async () =>
      (await portal.tdb.db.selectFrom('sso_login_states').select('state_hash').execute()).length;
    const count = await states();
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'http://localhost.evil.example/',
      '/api/v1/settings/api-keys',
    ]) {
      const res = await json(
        await portal.request(
          `/api/v1/auth/sso/start?${new URLSearchParams({ tenant: tenant.slug, return_to: returnTo })}`,
        ),
      );
      expect(res.status, returnTo).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: {
          issues: [expect.objectContaining({ path: 'return_to', code: 'foreign_return_to' })],
        },
      });
    }
    expect(await states()).toBe(count);
    // The portal's own origin is reduced to a path.
    const own = await portal.request(
      `/api/v1/auth/sso/start?${new URLSearchParams({ tenant: tenant.slug, return_to: 'http://localhost/settings/users#x' })}`,
    );
    expect(own.status).toBe(303);
  });

  it('sends a browser that navigated to a refusal back to the console’s login with the code', async () => {
    const res = await portal.request(
      `/api/v1/auth/sso/start?${new URLSearchParams({ tenant: tenant.slug, return_to: 'https://evil.example/' })}`,
      { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/login?sso_error=requete_invalide&tenant=${tenant.slug}`,
    );
    const unknown = await portal.request('/api/v1/auth/sso/callback?state=nope&code=x', {
      headers: { accept: 'text/html' },
    });
    expect(unknown.headers.get('location')).toBe('/login?sso_error=etat_sso_invalide');
  });

  it('answers introuvable for a tenant without single sign-on', async () => {
    const plain = await portal.provisionTenant();
    for (const slug of [plain.slug, 'no-such-tenant']) {
      const res = await json(await portal.request(`/api/v1/auth/sso/start?tenant=${slug}`));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('introuvable');
    }
  });

  it('answers a clear 502 when the provider is down, at the start and at the callback', async () => {
    await provider.stop();
    try {
      const res = await json(await portal.request(`/api/v1/auth/sso/start?tenant=${tenant.slug}`));
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        code: 'fournisseur_sso_indisponible',
        params: { reason: 'unreachable' },
      });
    } finally {
      await provider.start();
    }
    const { callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: person(),
      beforeCallback: () => provider.stop(),
    });
    try {
      expect(callback.status).toBe(502);
      expect((await json(callback)).body.code).toBe('fournisseur_sso_indisponible');
    } finally {
      await provider.start();
    }
  });
});
