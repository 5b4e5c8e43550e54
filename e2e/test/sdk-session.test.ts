/**
 * The sdk's session mode and cookieSession against the real portal process, as the console
 * uses them: the refresh token in the erp_refresh cookie (kept by a test cookie jar, as a
 * browser would), the access token in memory, one refresh when a token has expired.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Client, cookieSession, createClient, type Session } from '@erp/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CookieJar, cookieJar } from './cookie-jar';
import { type Platform, startPlatform } from './platform';

let platform: Platform;
let privateKey: KeyObject;

beforeAll(async () => {
  const keys = generateKeyPairSync('ed25519');
  privateKey = keys.privateKey;
  // The portal's signing keys, so that the test can make a token that has really expired.
  platform = await startPlatform({
    portal: {
      JWT_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      JWT_PUBLIC_KEY: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
});
afterAll(() => platform?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A browser-like page of the console: its cookie jar, a cookieSession, a client, and what went by. */
async function openConsole() {
  const jar: CookieJar = cookieJar(platform.portalUrl);
  const traffic = {
    refreshes: 0,
    expired: 0,
    bodies: [] as string[],
    refreshAnswers: [] as Response[],
  };
  const fetchThroughJar: typeof fetch = async (input, init) => {
    const response = await jar.fetch(input, init);
    const { pathname } = new URL(String(input));
    if (pathname === '/api/v1/auth/refresh' && init?.method === 'POST') {
      traffic.refreshes++;
      traffic.refreshAnswers.push(response);
    }
    const body = await response.clone().text();
    traffic.bodies.push(body);
    if (body.includes('"jeton_invalide"')) traffic.expired++;
    return response;
  };
  const session = cookieSession({ baseUrl: platform.portalUrl, fetch: fetchThroughJar });
  const changes: boolean[] = [];
  session.onChange((active) => changes.push(active));
  await session.login({
    email: 'admin@demo.test',
    password: platform.secrets.adminPassword,
    tenant: 'demo',
  });
  return { jar, traffic, session, changes, fetch: fetchThroughJar };
}

/** The access token with its expiry moved `seconds` from now, signed with the portal's key. */
function withExpiry(token: string, seconds: number): string {
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ ...claims, iat: now - 900, exp: now + seconds })}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}

/** A session handing out `stale` until its first refresh, then the real session's tokens. */
function staleUntilRefreshed(real: Session, stale: string): Session {
  let current: string | undefined = stale;
  return {
    accessToken: async () => current ?? real.accessToken(),
    refresh: async () => {
      current = undefined;
      return real.refresh();
    },
  };
}

const me = (client: Client) => client.get('/api/v1/me');

describe('cookieSession against the portal', () => {
  it('logs in: the refresh token only in the cookie, the access token works', async () => {
    const page = await openConsole();
    expect(page.jar.get('erp_refresh')).toMatch(/^rt_/);
    expect(page.traffic.bodies.join('\n')).not.toMatch(/rt_|refresh_token/);
    expect(page.changes).toEqual([true]);
    const client = createClient({ baseUrl: platform.portalUrl, session: page.session });
    client.setTenant('demo');
    const { data, error } = await me(client);
    expect(error).toBeUndefined();
    expect(data?.user.email).toBe('admin@demo.test');
    expect(data?.tenant?.slug).toBe('demo');
  });

  it('a request refused for an expired access token triggers one refresh, then succeeds', async () => {
    const page = await openConsole();
    const live = (await page.session.accessToken())!;
    // Signed right, only expired: the portal takes the same token with an expiry ahead.
    const bare = (token: string) =>
      fetch(`${platform.portalUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await bare(withExpiry(live, 600))).status).toBe(200);
    const expired = withExpiry(live, -60);
    expect(await (await bare(expired)).json()).toMatchObject({ code: 'jeton_invalide' });

    const cookieBefore = page.jar.get('erp_refresh');
    const client = createClient({
      baseUrl: platform.portalUrl,
      tenantId: 'demo',
      session: staleUntilRefreshed(page.session, expired),
      fetch: page.fetch,
    });
    const { data, error } = await me(client);
    expect(error).toBeUndefined();
    expect(data?.user.email).toBe('admin@demo.test');
    expect(page.traffic).toMatchObject({ refreshes: 1, expired: 1 });
    expect(page.jar.get('erp_refresh')).not.toBe(cookieBefore);
  });

  it('concurrent requests refused for an expired token share one refresh', async () => {
    const page = await openConsole();
    const expired = withExpiry((await page.session.accessToken())!, -60);
    const client = createClient({
      baseUrl: platform.portalUrl,
      tenantId: 'demo',
      session: staleUntilRefreshed(page.session, expired),
      fetch: page.fetch,
    });
    const results = await Promise.all(Array.from({ length: 6 }, () => me(client)));
    expect(results.map((r) => r.error?.code)).toEqual(Array(6).fill(undefined));
    expect(page.traffic.expired).toBe(6);
    // One rotation: a second one with the same cookie would have revoked the session.
    expect(page.traffic.refreshes).toBe(1);
    expect(page.changes).toEqual([true]);
  });

  it('renews the access token before it expires, so no request is refused', async () => {
    const page = await openConsole();
    const client = createClient({
      baseUrl: platform.portalUrl,
      tenantId: 'demo',
      session: page.session,
      fetch: page.fetch,
    });
    const first = await page.session.accessToken();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 871_000); // 29 s before the 15 minutes are up
    const { error } = await me(client);
    expect(error).toBeUndefined();
    expect(page.traffic).toMatchObject({ refreshes: 1, expired: 0 });
    expect(await page.session.accessToken()).not.toBe(first);
  });

  it('logout revokes the session on the portal and clears the cookie', async () => {
    const page = await openConsole();
    const cookie = page.jar.get('erp_refresh')!;
    await page.session.logout();
    expect(page.jar.get('erp_refresh')).toBeUndefined();
    expect(page.changes).toEqual([true, false]);
    expect(await page.session.accessToken()).toBeUndefined();
    expect(await page.session.refresh()).toBe(false);
    // The refusal's body was read to its end: left unread, it keeps the request open.
    const refused = page.traffic.refreshAnswers.at(-1)!;
    expect(refused.status).toBe(401);
    expect(refused.bodyUsed).toBe(true);
    // The cookie's value, replayed by hand, is dead on the portal too.
    const replay = await fetch(`${platform.portalUrl}/api/v1/auth/refresh`, {
      method: 'POST',
      headers: { origin: platform.portalUrl, cookie: `erp_refresh=${cookie}` },
    });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ code: 'jeton_invalide' });
  });
});
