import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, INTERNAL_KEY, session } from '../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let token: string;
let key: string;
beforeAll(async () => {
  portal = await createTestPortal({ BODY_LIMIT_BYTES: '4096' });
  tenant = await portal.provisionTenant();
  token = (await portal.login(tenant.adminEmail)).access_token;
  key = (await portal.createKey(tenant, ['sales:read'])).key;
});
afterAll(() => portal.tdb.close());

/** Every error answer has the SPEC shape and a request id; nothing ever answers 500. */
async function expectError(res: Response, status: number, code?: string) {
  const body = (await res.json()) as { code: string; params: unknown; message: string };
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'params']);
  if (code) expect(body.code).toBe(code);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  return body;
}

const raw = (path: string, init: RequestInit) => portal.request(path, init);

describe('errors', () => {
  it('unknown routes are JSON 404 introuvable', async () => {
    await expectError(await raw('/api/v1/nope', {}), 404, 'introuvable');
    await expectError(await raw('/api/v1/auth/login', { method: 'GET' }), 404, 'introuvable');
  });

  it('no credentials: 401 non_authentifie; bad Authorization forms never 500', async () => {
    await expectError(await raw('/api/v1/me', {}), 401, 'non_authentifie');
    const forms = [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'Bearer ',
      'bearer  x y',
      'Token abc',
      '\u00e9\u00e9',
      'Bearer ' + 'a'.repeat(5000),
      'Bearer a.b.c',
      'Bearer eyJhbGciOiJub25lIn0.e30.',
      'Bearer service_live_',
      'Bearer service_live_' + 'x'.repeat(48),
    ];
    for (const authorization of forms) {
      const res = await raw('/api/v1/me', { headers: { authorization, 'x-tenant': tenant.slug } });
      expect([401, 400]).toContain(res.status);
      await expectError(res, res.status);
    }
  });

  it('a JWT signed by someone else is jeton_invalide', async () => {
    const [h, p] = token.split('.');
    await expectError(
      await raw('/api/v1/me', { headers: session(`${h}.${p}.${'A'.repeat(86)}`) }),
      401,
      'jeton_invalide',
    );
  });

  it('sessions need a membership of the named tenant; the tenant header is required where documented', async () => {
    const other = await portal.provisionTenant();
    await expectError(
      await raw('/api/v1/settings/users', { headers: session(token, other.slug) }),
      403,
      'tenant_invalide',
    );
    await expectError(
      await raw('/api/v1/settings/users', { headers: session(token, 'no-such-tenant') }),
      403,
      'tenant_invalide',
    );
    await expectError(
      await raw('/api/v1/settings/users', { headers: session(token) }),
      400,
      'tenant_requis',
    );
  });

  it('oversized bodies get 413 charge_trop_volumineuse', async () => {
    const body = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(10_000) });
    await expectError(
      await raw('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
      413,
      'charge_trop_volumineuse',
    );
  });

  it('malformed JSON, wrong types and wrong content types get 400 requete_invalide', async () => {
    const bodies = [
      '{',
      'null',
      '[]',
      '"x"',
      '{"email": 5, "password": []}',
      '\u0000\u0001',
      '{"email":"a@b.test","password":"p","tenant":{"$ne":1}}',
    ];
    for (const body of bodies) {
      const res = await raw('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await expectError(res, 400, 'requete_invalide');
    }
    const form = await raw('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'email=a',
    });
    await expectError(form, 400, 'requete_invalide');
  });

  it('fuzzed bodies on every write route never yield a 500', async () => {
    const routes: [string, string, Record<string, string>][] = [
      ['POST', '/api/v1/auth/login', {}],
      ['POST', '/api/v1/auth/refresh', {}],
      ['POST', '/api/v1/auth/refresh', { origin: 'http://localhost', cookie: 'erp_refresh=rt_x' }],
      ['DELETE', '/api/v1/auth/refresh', { origin: 'http://localhost', cookie: 'erp_refresh=x' }],
      ['POST', '/api/v1/auth/logout', {}],
      ['POST', '/api/v1/settings/users', session(token, tenant.slug)],
      ['PATCH', `/api/v1/settings/users/${tenant.adminId}`, session(token, tenant.slug)],
      ['POST', '/api/v1/settings/api-keys', session(token, tenant.slug)],
      [
        'POST',
        '/api/v1/settings/api-keys/00000000-0000-0000-0000-000000000000/roll',
        session(token, tenant.slug),
      ],
      ['POST', '/api/v1/internal/tenants', { 'x-api-key': INTERNAL_KEY }],
      ['POST', '/api/v1/internal/subscriptions', { 'x-api-key': INTERNAL_KEY }],
    ];
    const values = [
      null,
      true,
      -1,
      1e308,
      '',
      'x'.repeat(300),
      '\u202e\ud800',
      [],
      {},
      [{}],
      { a: { b: { c: [] } } },
      '2026-13-45T99:99:99Z',
      '00000000-0000-0000-0000-000000000000',
    ];
    const keys = [
      'email',
      'password',
      'refresh_token',
      'refresh_cookie',
      'name',
      'roles',
      'scopes',
      'expires_at',
      'slug',
      'plan_code',
      'admin',
      'tenant',
      'status',
      'provider',
      'provider_subscription_id',
      'expire_previous_in_hours',
      '__proto__',
      'constructor',
    ];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const [method, path, headers] of routes) {
      for (let i = 0; i < 25; i++) {
        const body: Record<string, unknown> = {};
        for (let k = 0; k < 1 + rand(5); k++)
          body[keys[rand(keys.length)]!] = values[rand(values.length)];
        const res = await raw(path, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (res.status >= 400) await expectError(res, res.status);
      }
    }
  });

  it('bad path parameters are 400, not 500', async () => {
    await expectError(
      await raw('/api/v1/settings/api-keys/not-a-uuid', {
        method: 'DELETE',
        headers: session(token, tenant.slug),
      }),
      400,
      'requete_invalide',
    );
  });

  it('keeps a sane incoming X-Request-Id and replaces a hostile one', async () => {
    const kept = await raw('/api/v1/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('abc-123');
    const replaced = await raw('/api/v1/health', {
      headers: { 'x-request-id': 'a b\u0001<script>' },
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
  });

  it('API-key errors after authentication carry the rate-limit headers', async () => {
    const res = await raw('/api/v1/settings/users', { headers: apiKey(key, tenant.slug) });
    await expectError(res, 403, 'acces_refuse');
    expect(res.headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('an unexpected failure is 500 erreur_interne with the request id and no detail', async () => {
    const { buildApp } = await import('./app');
    const { openDatabase } = await import('@erp/db');
    const broken = openDatabase({
      url: portal.tdb.url.replace(/\/[^/]+$/, '/no_such_database'),
      max: 1,
    });
    const app = buildApp({ ...portal.deps, db: broken.db });
    const res = await app.request('/api/v1/public/plans', {
      headers: { 'x-request-id': 'req-500' },
    });
    const body = await expectError(res, 500, 'erreur_interne');
    expect(body.params).toEqual({ request_id: 'req-500' });
    expect(body.message).not.toMatch(/no_such_database/);
    await broken.close();
  });
});
