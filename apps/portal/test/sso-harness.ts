import type { createTestPortal } from './harness';
import { session } from './harness';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type TestIdentity,
  type TestOidcProvider,
} from './oidc-provider';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;

/** The portal's callback as tests reach it (`app.request` answers on http://localhost). */
export const CALLBACK_URL = 'http://localhost/api/v1/auth/sso/callback';

/** A cookie's value from a response's Set-Cookie headers. */
export function cookieFrom(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    if (pair!.slice(0, at).trim() === name) return pair!.slice(at + 1);
  }
  return undefined;
}

/**
 * What a browser does at the provider: follows its redirects (carrying its cookies) from the
 * authorization URL until one leaves the provider, and returns that URL (the portal's
 * callback with `code` and `state`, or an `error`).
 */
export async function followProvider(authorizeUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizeUrl);
  const providerOrigin = url.origin;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider answered ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
    if (url.origin !== providerOrigin) return url;
  }
  throw new Error('too many redirects at the provider');
}

/** Single sign-on for a tenant, configured through the API as its super-admin. */
export async function configureSso(
  portal: Portal,
  tenant: { slug: string; adminEmail: string },
  provider: TestOidcProvider,
  settings: Partial<{ allowed_domains: string[]; default_role: string; enforced: boolean }> = {},
) {
  const admin = await portal.login(tenant.adminEmail);
  const res = await portal.json(
    await portal.request('/api/v1/settings/sso', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...session(admin.access_token, tenant.slug) },
      body: JSON.stringify({
        issuer: provider.issuer,
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        allowed_domains: [],
        default_role: 'sales:reader',
        enforced: false,
        ...settings,
      }),
    }),
  );
  if (res.status !== 200)
    throw new Error(`configureSso: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** One sign-in, browser-less: start → provider → callback, with the state cookie carried. */
export async function signIn(
  portal: Portal,
  provider: TestOidcProvider,
  input: {
    tenant: string;
    identity: TestIdentity;
    returnTo?: string;
    /** Changes the authorization request on its way to the provider. */
    tamper?: (authorizeUrl: URL) => void;
    /** Runs between the provider's redirect and the callback. */
    beforeCallback?: () => Promise<void>;
  },
) {
  provider.control.nextIdentity = input.identity;
  const query = new URLSearchParams({ tenant: input.tenant });
  if (input.returnTo) query.set('return_to', input.returnTo);
  const start = await portal.request(`/api/v1/auth/sso/start?${query}`);
  if (start.status !== 303) throw new Error(`start: ${start.status} ${await start.text()}`);
  const stateCookie = cookieFrom(start, 'erp_sso')!;
  const authorizeUrl = new URL(start.headers.get('location')!);
  input.tamper?.(authorizeUrl);
  const callbackUrl = await followProvider(authorizeUrl.href);
  await input.beforeCallback?.();
  const callback = await portal.request(callbackUrl.href, {
    headers: { cookie: `erp_sso=${stateCookie}` },
  });
  return { start, authorizeUrl, callbackUrl, stateCookie, callback };
}

/** The session a callback's cookie holds: refreshed as the console does, then `GET /me`. */
export async function sessionFromCallback(portal: Portal, callback: Response, tenant?: string) {
  const refreshToken = cookieFrom(callback, 'erp_refresh');
  if (!refreshToken) throw new Error('no erp_refresh cookie');
  const refreshed = await portal.json(
    await portal.request('/api/v1/auth/refresh', {
      method: 'POST',
      headers: { cookie: `erp_refresh=${refreshToken}`, origin: 'http://localhost' },
    }),
  );
  if (refreshed.status !== 200) throw new Error(`refresh: ${refreshed.status}`);
  const token = refreshed.body.access_token as string;
  const me = await portal.json(
    await portal.request('/api/v1/me', { headers: session(token, tenant) }),
  );
  return { token, me };
}
