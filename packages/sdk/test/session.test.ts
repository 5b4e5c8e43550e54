/**
 * Session mode and cookieSession, against msw: the mechanics (one refresh for many 401s, when
 * to renew, what each call sends). e2e/test/sdk-session.test.ts runs them against the real portal.
 */
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, cookieSession, createClient, type Session } from '../src/index';
import { BASE_URL, mockPortal } from './server';

const server = mockPortal();
const expired = () =>
  HttpResponse.json(
    { code: 'jeton_invalide', params: {}, message: 'The access token is expired.' },
    { status: 401 },
  );

/** A session whose token is `t1` until a refresh (which takes `delayMs`) makes it `t2`. */
function fakeSession(delayMs = 0, refreshes = true) {
  let token = 't1';
  const calls = { refresh: 0 };
  const session: Session = {
    accessToken: async () => token,
    refresh: async () => {
      calls.refresh++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (refreshes) token = 't2';
      return refreshes;
    },
  };
  return { session, calls };
}

/** /api/v1/me: 200 for Bearer t2, `expired` for anything else; records what it saw. */
function meAcceptingT2() {
  const seen: { authorization: string | null; tenant: string | null }[] = [];
  server.use(
    http.get(`${BASE_URL}/api/v1/me`, ({ request }) => {
      const authorization = request.headers.get('authorization');
      seen.push({ authorization, tenant: request.headers.get('x-tenant-id') });
      return authorization === 'Bearer t2' ? HttpResponse.json({ ok: true }) : expired();
    }),
  );
  return seen;
}

describe('createClient with a session', () => {
  it('sends the session’s token, and the tenant once set', async () => {
    const seen = meAcceptingT2();
    const { session } = fakeSession();
    const client = createClient({ baseUrl: BASE_URL, session });
    await client.get('/api/v1/me');
    client.setTenant('demo');
    await client.get('/api/v1/me');
    expect(seen[0]).toEqual({ authorization: 'Bearer t1', tenant: null });
    expect(seen.at(-1)).toEqual({ authorization: 'Bearer t2', tenant: 'demo' });
  });

  it('on a 401 jeton_invalide refreshes once and retries', async () => {
    const seen = meAcceptingT2();
    const { session, calls } = fakeSession();
    const { data, error } = await createClient({ baseUrl: BASE_URL, session }).get('/api/v1/me');
    expect(error).toBeUndefined();
    expect(data).toEqual({ ok: true });
    expect(calls.refresh).toBe(1);
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('concurrent 401s share one refresh', async () => {
    const seen = meAcceptingT2();
    const { session, calls } = fakeSession(50);
    const client = createClient({ baseUrl: BASE_URL, session });
    const results = await Promise.all(Array.from({ length: 5 }, () => client.get('/api/v1/me')));
    expect(results.map((r) => r.error)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(calls.refresh).toBe(1);
    expect(seen.filter((s) => s.authorization === 'Bearer t2')).toHaveLength(5);
  });

  it('a 401 arriving after another request renewed the token retries without a refresh', async () => {
    const { session, calls } = fakeSession();
    let first = true;
    server.use(
      http.get(`${BASE_URL}/api/v1/me`, async ({ request }) => {
        if (request.headers.get('authorization') === 'Bearer t2')
          return HttpResponse.json({ ok: true });
        // The slow request's 401 comes back after the fast one has refreshed.
        if (first) {
          first = false;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return expired();
      }),
    );
    const client = createClient({ baseUrl: BASE_URL, session });
    const results = await Promise.all([client.get('/api/v1/me'), client.get('/api/v1/me')]);
    expect(results.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(calls.refresh).toBe(1);
  });

  it('returns the 401 when the refresh fails, or when the new token is refused too', async () => {
    meAcceptingT2();
    const failing = fakeSession(0, false);
    const refused = await createClient({ baseUrl: BASE_URL, session: failing.session }).get(
      '/api/v1/me',
    );
    expect(refused.error?.code).toBe('jeton_invalide');
    expect(failing.calls.refresh).toBe(1);

    let hits = 0;
    server.use(
      http.get(`${BASE_URL}/api/v1/me`, () => {
        hits++;
        return expired();
      }),
    );
    const looping = fakeSession();
    const again = await createClient({ baseUrl: BASE_URL, session: looping.session }).get(
      '/api/v1/me',
    );
    expect(again.error?.code).toBe('jeton_invalide');
    expect(looping.calls.refresh).toBe(1);
    expect(hits).toBe(2);
  });

  it('does not refresh on other 401s', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/me`, () =>
        HttpResponse.json(
          { code: 'non_authentifie', params: {}, message: 'No credentials.' },
          { status: 401 },
        ),
      ),
    );
    const { session, calls } = fakeSession();
    const { error } = await createClient({ baseUrl: BASE_URL, session }).get('/api/v1/me');
    expect(error?.code).toBe('non_authentifie');
    expect(calls.refresh).toBe(0);
  });

  it('takes an API key or a session, not both, not neither', () => {
    const { session } = fakeSession();
    expect(() =>
      // @ts-expect-error the two are exclusive
      createClient({ baseUrl: BASE_URL, session, apiKey: 'k', tenantId: 'demo' }),
    ).toThrow(TypeError);
    // @ts-expect-error one of them is required
    expect(() => createClient({ baseUrl: BASE_URL, tenantId: 'demo' })).toThrow(TypeError);
  });
});

describe('cookieSession', () => {
  const auth = { login: [] as unknown[], refresh: 0, logout: 0 };
  let refreshAnswer: () => Response;
  // Every call's init, to check credentials and that no token travels in a body.
  const inits: RequestInit[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    inits.push(init ?? {});
    return fetch(input, init);
  };
  const token = (n: number, expiresIn = 900) => ({
    access_token: `at${n}`,
    token_type: 'Bearer',
    expires_in: expiresIn,
  });

  beforeEach(() => {
    auth.login = [];
    auth.refresh = 0;
    auth.logout = 0;
    inits.length = 0;
    refreshAnswer = () => HttpResponse.json(token(1 + auth.refresh));
    server.use(
      http.post(`${BASE_URL}/api/v1/auth/login`, async ({ request }) => {
        const body = (await request.json()) as { password: string };
        auth.login.push(body);
        return body.password === 'right'
          ? HttpResponse.json(token(1))
          : HttpResponse.json(
              {
                code: 'identifiants_invalides',
                params: {},
                message: 'E-mail or password is incorrect.',
              },
              { status: 401 },
            );
      }),
      http.post(`${BASE_URL}/api/v1/auth/refresh`, async ({ request }) => {
        expect(await request.text()).toBe('');
        auth.refresh++;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return refreshAnswer();
      }),
      http.delete(`${BASE_URL}/api/v1/auth/refresh`, () => {
        auth.logout++;
        return new HttpResponse(null, { status: 204 });
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const newSession = () => cookieSession({ baseUrl: `${BASE_URL}/`, fetch: recordingFetch });

  it('logs in with refresh_cookie, keeps the access token, and tells its listeners', async () => {
    const session = newSession();
    const changes: boolean[] = [];
    session.onChange((active) => changes.push(active));
    await session.login({ email: 'a@b.test', password: 'right', tenant: 'demo' });
    expect(auth.login).toEqual([
      { email: 'a@b.test', password: 'right', tenant: 'demo', refresh_cookie: true },
    ]);
    expect(await session.accessToken()).toBe('at1');
    expect(auth.refresh).toBe(0);
    expect(changes).toEqual([true]);
    expect(inits.every((init) => init.credentials === 'same-origin')).toBe(true);
  });

  it('throws the portal’s error when the login fails', async () => {
    const session = newSession();
    const failure = await session.login({ email: 'a@b.test', password: 'wrong' }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.code).toBe('identifiants_invalides');
    expect(failure.status).toBe(401);
  });

  it('renews the token 30 s before it expires, on use', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const session = newSession();
    await session.login({ email: 'a@b.test', password: 'right' });
    vi.setSystemTime(Date.now() + 869_000);
    expect(await session.accessToken()).toBe('at1');
    vi.setSystemTime(Date.now() + 2_000);
    expect(await session.accessToken()).toBe('at2');
    expect(auth.refresh).toBe(1);
  });

  it('asks the cookie for a first token, and shares one refresh among concurrent callers', async () => {
    const session = newSession();
    const tokens = await Promise.all([
      session.accessToken(),
      session.accessToken(),
      session.refresh(),
    ]);
    expect(tokens).toEqual(['at2', 'at2', true]);
    expect(auth.refresh).toBe(1);
  });

  it('a refused refresh ends the session: no token, no more requests until asked', async () => {
    refreshAnswer = () =>
      HttpResponse.json({ code: 'jeton_invalide', params: {}, message: 'Used.' }, { status: 401 });
    const session = newSession();
    const changes: boolean[] = [];
    session.onChange((active) => changes.push(active));
    await session.login({ email: 'a@b.test', password: 'right' });
    expect(await session.refresh()).toBe(false);
    expect(await session.accessToken()).toBeUndefined();
    expect(await session.accessToken()).toBeUndefined();
    expect(auth.refresh).toBe(1);
    expect(changes).toEqual([true, false]);
  });

  it('an unreachable or failing portal ends nothing', async () => {
    const session = newSession();
    await session.login({ email: 'a@b.test', password: 'right' });
    refreshAnswer = () => HttpResponse.error();
    expect(await session.refresh()).toBe(false);
    refreshAnswer = () => HttpResponse.text('Bad gateway', { status: 502 });
    expect(await session.refresh()).toBe(false);
    expect(await session.accessToken()).toBe('at1');
  });

  it('logout ends the session on the portal and here', async () => {
    const session = newSession();
    const changes: boolean[] = [];
    const stop = session.onChange((active) => changes.push(active));
    await session.login({ email: 'a@b.test', password: 'right' });
    await session.logout();
    expect(auth.logout).toBe(1);
    expect(await session.accessToken()).toBeUndefined();
    expect(changes).toEqual([true, false]);
    stop();
    await session.login({ email: 'a@b.test', password: 'right' });
    expect(changes).toEqual([true, false]);
  });

  it('serialises refreshes through Web Locks when the runtime has them', async () => {
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: async (name: string, callback: () => Promise<boolean>) => {
          names.push(name);
          return callback();
        },
      },
    });
    try {
      expect(await newSession().refresh()).toBe(true);
      expect(names).toEqual(['erp-session-refresh']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('never touches localStorage or sessionStorage', async () => {
    const touched: string[] = [];
    const trap = (name: string) =>
      new Proxy({}, { get: (_, key) => touched.push(`${name}.${String(key)}`) });
    vi.stubGlobal('localStorage', trap('localStorage'));
    vi.stubGlobal('sessionStorage', trap('sessionStorage'));
    try {
      const session = newSession();
      await session.login({ email: 'a@b.test', password: 'right' });
      const client = createClient({ baseUrl: BASE_URL, session, tenantId: 'demo' });
      server.use(http.get(`${BASE_URL}/api/v1/me`, () => HttpResponse.json({})));
      await client.get('/api/v1/me');
      await session.refresh();
      await session.logout();
      expect(touched).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
