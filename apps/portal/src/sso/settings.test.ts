import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startOidcProvider,
  type TestOidcProvider,
} from '../../test/oidc-provider';
import { CALLBACK_URL, configureSso, sessionFromCallback, signIn } from '../../test/sso-harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let provider: TestOidcProvider;

beforeAll(async () => {
  portal = await createTestPortal({ SSO_ALLOW_INSECURE_ISSUERS: 'true' });
  provider = await startOidcProvider([CALLBACK_URL]);
});
afterAll(async () => {
  await provider.close();
  await portal.tdb.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  issuer: provider.issuer,
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  allowed_domains: ['Example.COM'],
  default_role: 'sales:reader',
  enforced: false,
  ...overrides,
});

async function asAdmin(tenant: { slug: string; adminEmail: string }) {
  const { access_token: token } = await portal.login(tenant.adminEmail);
  const call = async (method: string, payload?: unknown) =>
    portal.json(
      await portal.request('/api/v1/settings/sso', {
        method,
        headers: {
          ...session(token, tenant.slug),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      }),
    );
  return { token, call };
}

function issues(res: { body: { params: { issues: { path: string; code: string }[] } } }) {
  return res.body.params.issues.map((i) => `${i.path}:${i.code}`);
}

describe('Settings → Single sign-on', () => {
  it('answers defaults, then stores settings whose provider checks out; the secret is never returned', async () => {
    const tenant = await portal.provisionTenant();
    const { call } = await asAdmin(tenant);
    const empty = await call('GET');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      configured: false,
      issuer: null,
      client_id: null,
      client_secret_set: false,
      allowed_domains: [],
      default_role: null,
      enforced: false,
      redirect_uri: 'http://localhost/api/v1/auth/sso/callback',
      start_url: `http://localhost/api/v1/auth/sso/start?tenant=${tenant.slug}`,
      legacy_authorize_url: null,
      updated_at: null,
    });

    const saved = await call('PUT', body());
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      configured: true,
      issuer: provider.issuer,
      client_id: CLIENT_ID,
      client_secret_set: true,
      allowed_domains: ['example.com'],
      default_role: 'sales:reader',
      enforced: false,
    });
    expect(JSON.stringify(saved.body)).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify((await call('GET')).body)).not.toContain(CLIENT_SECRET);

    // At rest: sealed, bound to the tenant (not the plaintext, not openable as another row's).
    const row = await portal.tdb.db
      .selectFrom('sso_settings')
      .select('client_secret_sealed')
      .where('tenant_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    expect(row.client_secret_sealed!.includes(Buffer.from(CLIENT_SECRET))).toBe(false);
    expect(portal.deps.secretBox.open(row.client_secret_sealed!, `sso:${tenant.id}`)).toBe(
      CLIENT_SECRET,
    );
    expect(() => portal.deps.secretBox.open(row.client_secret_sealed!, 'sso:another')).toThrow();

    // Saving again without a secret keeps the stored one.
    const { client_secret: _, ...withoutSecret } = body({ enforced: true });
    const again = await call('PUT', withoutSecret);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ client_secret_set: true, enforced: true });
  });

  it('needs a client secret the first time', async () => {
    const tenant = await portal.provisionTenant();
    const { call } = await asAdmin(tenant);
    const { client_secret: _, ...withoutSecret } = body();
    const res = await call('PUT', withoutSecret);
    expect(res.status).toBe(400);
    expect(issues(res)).toEqual(['client_secret:required']);
  });

  it('refuses an issuer that cannot be used, with the reason, and stores nothing', async () => {
    const tenant = await portal.provisionTenant();
    const { call } = await asAdmin(tenant);
    // A port nothing listens on.
    const closed = http.createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    // A server answering 404 to everything; later, the provider's key set emptied.
    const notOidc = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end('{}');
    });
    await new Promise<void>((done) => notOidc.listen(0, '127.0.0.1', done));
    const notOidcUrl = `http://127.0.0.1:${(notOidc.address() as AddressInfo).port}`;
    provider.control.jwksOverride = { keys: [] };
    try {
      const cases: [string, string][] = [
        [`http://127.0.0.1:${deadPort}`, 'issuer:issuer_unreachable'],
        [notOidcUrl, 'issuer:discovery_invalid'],
        [`${provider.issuer}/other`, 'issuer:discovery_invalid'],
        [provider.issuer.replace('127.0.0.1', 'localhost'), 'issuer:issuer_mismatch'],
        ['http://203.0.113.7', 'issuer:https_required'],
        ['https://10.0.0.1', 'issuer:private_address'],
        ['https://169.254.169.254/latest', 'issuer:private_address'],
        [provider.issuer, 'issuer:jwks_invalid'],
      ];
      for (const [issuer, expected] of cases) {
        const res = await call('PUT', body({ issuer }));
        expect(res.status, issuer).toBe(400);
        expect(res.body.code).toBe('requete_invalide');
        expect(issues(res), issuer).toEqual([expected]);
      }
    } finally {
      provider.control.jwksOverride = undefined;
      await new Promise<void>((done) => notOidc.close(() => done()));
    }
    expect((await call('GET')).body.configured).toBe(false);
  });

  it('validates the body: issuer form, domains, a role JIT may grant', async () => {
    const tenant = await portal.provisionTenant();
    const { call } = await asAdmin(tenant);
    const res = await call(
      'PUT',
      body({
        issuer: 'https://user:pw@idp.example/?q=1',
        allowed_domains: ['not a domain', 'ok.example', 'OK.example'],
        default_role: 'super-admin',
        extra: true,
      }),
    );
    expect(res.status).toBe(400);
    expect(
      issues(res)
        .map((i) => i.split(':')[0])
        .sort(),
    ).toEqual(['', 'allowed_domains', 'allowed_domains.0', 'default_role', 'issuer', 'issuer']);
  });

  it('is for admins, through a session', async () => {
    const tenant = await portal.provisionTenant();
    const reader = await portal.addUser(tenant, ['sales:reader']);
    const res = await portal.json(
      await portal.request('/api/v1/settings/sso', { headers: session(reader.token, tenant.slug) }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'admin' } });
    const key = await portal.createKey(tenant, ['sales:read']);
    const byKey = await portal.json(
      await portal.request('/api/v1/settings/sso', {
        headers: { authorization: `Bearer ${key.key}`, 'x-tenant-id': tenant.slug },
      }),
    );
    expect(byKey.status).toBe(403);
    expect(byKey.body.params.required).toBe('session');
    const anonymous = await portal.request('/api/v1/settings/sso');
    expect(anonymous.status).toBe(401);
  });

  it('removes single sign-on: start answers introuvable, password logins come back', async () => {
    const tenant = await portal.provisionTenant();
    await configureSso(portal, tenant, provider, { enforced: true });
    const { call } = await asAdmin(tenant);
    expect((await call('DELETE')).status).toBe(204);
    expect((await call('GET')).body.configured).toBe(false);
    const start = await portal.request(`/api/v1/auth/sso/start?tenant=${tenant.slug}`);
    expect(start.status).toBe(404);
  });
});

describe('an enforced tenant', () => {
  let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
  let member: Awaited<ReturnType<typeof portal.addUser>>;
  const loginWith = async (email: string, extra: Record<string, unknown> = {}) =>
    portal.json(
      await portal.post(
        '/api/v1/auth/login',
        { email, password: PASSWORD, ...extra },
        { 'x-forwarded-for': `10.7.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
      ),
    );

  beforeAll(async () => {
    tenant = await portal.provisionTenant();
    member = await portal.addUser(tenant, ['admin']);
    await configureSso(portal, tenant, provider, { enforced: true });
  });

  it('answers a password login with sso_requis and the start URL', async () => {
    const res = await loginWith(member.email, { tenant: tenant.slug });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'sso_requis',
      params: { authorize_url: `http://localhost/api/v1/auth/sso/start?tenant=${tenant.slug}` },
      message: 'This tenant logs in through single sign-on.',
    });
    // Behind a trusted balancer, the URL is the one the browser used.
    const proxied = await portal.json(
      await portal.post(
        '/api/v1/auth/login',
        { email: member.email, password: PASSWORD, tenant: tenant.slug },
        {
          'x-forwarded-for': '10.7.0.1',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'erp.example.com',
        },
      ),
    );
    expect(proxied.body.params.authorize_url).toBe(
      `https://erp.example.com/api/v1/auth/sso/start?tenant=${tenant.slug}`,
    );
  });

  it('refuses a password session opened without a tenant once it enters this one', async () => {
    const login = await loginWith(member.email);
    expect(login.status).toBe(200);
    const res = await portal.json(
      await portal.request('/api/v1/me', {
        headers: session(login.body.access_token, tenant.slug),
      }),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('sso_requis');
    expect(res.body.params.authorize_url).toContain(`tenant=${tenant.slug}`);
  });

  it('keeps a password fallback for its super-admins', async () => {
    const res = await loginWith(tenant.adminEmail, { tenant: tenant.slug });
    expect(res.status).toBe(200);
    const me = await portal.json(
      await portal.request('/api/v1/me', { headers: session(res.body.access_token, tenant.slug) }),
    );
    expect(me.status).toBe(200);
  });

  it('lets the member in through single sign-on, and the session keeps working after a refresh', async () => {
    const { callback } = await signIn(portal, provider, {
      tenant: tenant.slug,
      identity: { sub: `s-${member.id}`, email: member.email, email_verified: true },
    });
    expect(callback.status).toBe(303);
    const { me } = await sessionFromCallback(portal, callback, tenant.slug);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(member.email);
  });
});
