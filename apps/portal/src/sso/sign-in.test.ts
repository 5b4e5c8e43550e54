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
});
