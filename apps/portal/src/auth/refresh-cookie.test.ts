import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant();
});
afterAll(() => portal.tdb.close());

// app.request() addresses http://localhost: that is the portal's own origin in these tests.
const OWN = { origin: 'http://localhost' };
const REFRESH = '/api/v1/auth/refresh';

/** The one Set-Cookie of a response, as its value and its attributes (names lower-cased). */
function setCookie(res: { headers: Headers }) {
  const all = res.headers.getSetCookie();
  expect(all).toHaveLength(1);
  const [pair = '', ...attributes] = all[0]!.split(';').map((part) => part.trim());
  const [name, value] = pair.split('=');
  return {
    name,
    value,
    attributes: Object.fromEntries(
      attributes.map((a) => {
        const [key = '', val = true] = a.split('=');
        return [key.toLowerCase(), val];
      }),
    ),
  };
}

async function cookieLogin(headers: Record<string, string> = OWN) {
  const res = await portal
    .post(
      '/api/v1/auth/login',
      { email: tenant.adminEmail, password: PASSWORD, refresh_cookie: true },
      headers,
    )
    .then(portal.json);
  return { res, token: res.status === 200 ? setCookie(res).value! : '' };
}

function refreshWith(cookie: string | undefined, headers: Record<string, string> = OWN) {
  return portal
    .request(REFRESH, {
      method: 'POST',
      headers: { ...headers, ...(cookie === undefined ? {} : { cookie: `erp_refresh=${cookie}` }) },
    })
    .then(portal.json);
}

describe('login with refresh_cookie', () => {
  it('sets the refresh token in an HttpOnly, Secure, SameSite=Strict cookie on the refresh path only', async () => {
    const { res } = await cookieLogin();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = setCookie(res);
    expect(cookie.name).toBe('erp_refresh');
    expect(cookie.value).toMatch(/^rt_[\w-]{43}$/);
    expect(cookie.attributes).toEqual({
      httponly: true,
      secure: true,
      samesite: 'Strict',
      path: '/api/v1/auth/refresh',
      'max-age': String(30 * 24 * 3600),
    });
    const me = await portal.request('/api/v1/me', {
      headers: session(res.body.access_token, tenant.slug),
    });
    expect(me.status).toBe(200);
  });

  it('is refused from another origin, or without one, before the password is checked', async () => {
    const variants: Record<string, string>[] = [
      {},
      { origin: 'https://evil.test' },
      { origin: 'null' },
    ];
    for (const headers of variants) {
      const { res } = await cookieLogin(headers);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('origine_interdite');
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('validates refresh_cookie', async () => {
    const res = await portal
      .post('/api/v1/auth/login', {
        email: tenant.adminEmail,
        password: PASSWORD,
        refresh_cookie: 'yes',
      })
      .then(portal.json);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('requete_invalide');
    expect(res.body.params.issues[0].path).toBe('refresh_cookie');
  });
});

describe('refresh by cookie', () => {
  it('rotates the cookie and answers a working access token, with no refresh_token in the body', async () => {
    const { token } = await cookieLogin();
    const res = await refreshWith(token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const next = setCookie(res);
    expect(next.value).not.toBe(token);
    expect(next.attributes).toMatchObject({ httponly: true, path: '/api/v1/auth/refresh' });
    const me = await portal.request('/api/v1/me', {
      headers: session(res.body.access_token, tenant.slug),
    });
    expect(me.status).toBe(200);
    expect((await refreshWith(next.value)).status).toBe(200);
  });

  it('refuses a missing or foreign Origin, and leaves the session alive', async () => {
    const { token } = await cookieLogin();
    const variants: Record<string, string>[] = [
      {},
      { origin: 'https://evil.test' },
      { origin: 'http://localhost.evil.test' },
      { origin: 'http://evil.localhost' },
      { origin: 'http://localhost:4000' },
      { origin: 'null' },
      { origin: 'not a url' },
    ];
    for (const headers of variants) {
      const res = await refreshWith(token, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toMatchObject({ code: 'origine_interdite', params: {} });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await refreshWith(token)).status).toBe(200);
  });

  it('behind a trusted proxy, compares the Origin with X-Forwarded-Host', async () => {
    const { token } = await cookieLogin({
      origin: 'https://portal.example',
      'x-forwarded-host': 'portal.example',
    });
    const refused = await refreshWith(token, { origin: 'http://localhost' });
    expect(refused.status).toBe(200);
    const { token: other } = await cookieLogin();
    const forwarded = await refreshWith(other, {
      origin: 'https://evil.test',
      'x-forwarded-host': 'portal.example',
    });
    expect(forwarded.body.code).toBe('origine_interdite');
  });

  it('ignores X-Forwarded-Host without TRUST_PROXY', async () => {
    const direct = await createTestPortal({ TRUST_PROXY: 'false' }, portal.tdb);
    const res = await direct
      .post(
        '/api/v1/auth/login',
        { email: tenant.adminEmail, password: PASSWORD, refresh_cookie: true },
        { origin: 'https://evil.test', 'x-forwarded-host': 'evil.test' },
      )
      .then(direct.json);
    expect(res.body.code).toBe('origine_interdite');
  });

  it('a reused cookie revokes the family, and the refused cookie is cleared', async () => {
    const { token: first } = await cookieLogin();
    const second = setCookie(await refreshWith(first)).value;
    const replay = await refreshWith(first);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('jeton_invalide');
    const cleared = setCookie(replay);
    expect(cleared).toMatchObject({ name: 'erp_refresh', value: '' });
    expect(cleared.attributes).toMatchObject({ 'max-age': '0', path: '/api/v1/auth/refresh' });
    // The thief's replay also killed the holder's newer cookie.
    expect((await refreshWith(second)).body.code).toBe('jeton_invalide');
  });

  it('answers bad inputs with {code, params, message}, never a 500', async () => {
    const cases: [RequestInit, number, string][] = [
      [{ method: 'POST' }, 401, 'non_authentifie'],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
        401,
        'non_authentifie',
      ],
      // Declared JSON must be JSON (as on every route with an optional body): send no type.
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' },
        400,
        'requete_invalide',
      ],
      [{ method: 'POST', headers: { cookie: 'erp_refresh=' } }, 401, 'non_authentifie'],
      [{ method: 'POST', headers: { cookie: 'erp_refresh=rt_forged' } }, 401, 'jeton_invalide'],
      // A cookie value no browser would send reads as no cookie.
      [{ method: 'POST', headers: { cookie: 'erp_refresh="%%' } }, 401, 'non_authentifie'],
      [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"refresh_token":""}',
        },
        400,
        'requete_invalide',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"refresh' },
        400,
        'requete_invalide',
      ],
      [
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'rt_x' },
        400,
        'requete_invalide',
      ],
    ];
    for (const [init, status, code] of cases) {
      const res = await portal.json(
        await portal.request(REFRESH, { ...init, headers: { ...OWN, ...init.headers } }),
      );
      expect(res.status, JSON.stringify(init)).toBe(status);
      expect(res.body).toEqual({ code, params: expect.any(Object), message: expect.any(String) });
    }
  });
});

describe('DELETE /api/v1/auth/refresh', () => {
  it('revokes the cookie’s session and clears the cookie', async () => {
    const { token } = await cookieLogin();
    const res = await portal.request(REFRESH, {
      method: 'DELETE',
      headers: { ...OWN, cookie: `erp_refresh=${token}` },
    });
    expect(res.status).toBe(204);
    const cleared = setCookie(res);
    expect(cleared).toMatchObject({ name: 'erp_refresh', value: '' });
    expect(cleared.attributes).toMatchObject({ 'max-age': '0', path: '/api/v1/auth/refresh' });
    expect((await refreshWith(token)).body.code).toBe('jeton_invalide');
  });

  it('answers 204 and clears without a cookie, with or without an Origin', async () => {
    for (const headers of [{}, OWN, { origin: 'https://evil.test' }]) {
      const res = await portal.request(REFRESH, { method: 'DELETE', headers });
      expect(res.status).toBe(204);
      expect(setCookie(res).attributes['max-age']).toBe('0');
    }
  });

  it('refuses a cookie from another origin, and the session lives on', async () => {
    const { token } = await cookieLogin();
    const res = await portal
      .request(REFRESH, {
        method: 'DELETE',
        headers: { origin: 'https://evil.test', cookie: `erp_refresh=${token}` },
      })
      .then(portal.json);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('origine_interdite');
    expect((await refreshWith(token)).status).toBe(200);
  });
});

describe('the JSON flow is unchanged', () => {
  it('login, refresh and logout keep the refresh token in the bodies, and set no cookie', async () => {
    const login = await portal
      .post('/api/v1/auth/login', { email: tenant.adminEmail, password: PASSWORD })
      .then(portal.json);
    expect(login.body.refresh_token).toMatch(/^rt_/);
    expect(login.headers.getSetCookie()).toEqual([]);
    const { token } = await cookieLogin();
    // A body token wins over a cookie, and is answered in the body: the cookie stays as it was.
    const refreshed = await portal
      .post(
        REFRESH,
        { refresh_token: login.body.refresh_token },
        { cookie: `erp_refresh=${token}` },
      )
      .then(portal.json);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toMatch(/^rt_/);
    expect(refreshed.headers.getSetCookie()).toEqual([]);
    expect((await refreshWith(token)).status).toBe(200);
    const logout = await portal.post('/api/v1/auth/logout', {
      refresh_token: refreshed.body.refresh_token,
    });
    expect(logout.status).toBe(204);
    const after = await portal
      .post(REFRESH, { refresh_token: refreshed.body.refresh_token })
      .then(portal.json);
    expect(after.body.code).toBe('jeton_invalide');
  });

  it('logout still requires a refresh_token', async () => {
    const res = await portal.post('/api/v1/auth/logout', {}).then(portal.json);
    expect(res.status).toBe(400);
    expect(res.body.params.issues[0].path).toBe('refresh_token');
  });
});
