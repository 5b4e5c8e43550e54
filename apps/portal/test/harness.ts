import { randomBytes } from 'node:crypto';
import { generatePasswordLinkToken, hashPasswordLinkToken } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { createLogger } from '@erp/logger';
import { createSecretBox } from '@erp/webhooks';
import { seedPlans } from '../seed';
import { buildApp } from '../src/app';
import { createTokenSigner, generateSigningKeys, type TokenSigner } from '../src/auth';
import type { Deps } from '../src/deps';
import { parseEnv } from '../src/env';
import { createPortalMetrics } from '../src/http/metrics';
import { createTenantDatabase } from '../src/resources';
import { createReadRouter } from '../src/resources/replicas';

export const INTERNAL_KEY = 'internal-test-key-0123456789abcdef';
export const PASSWORD = 'correct horse battery staple';
export const SECRETS_ENCRYPTION_KEY = 'test-secrets-encryption-key-0123456789abcdef';

/** Test DNS: `localhost` only; every other name does not resolve (tests inject their own). */
async function resolveTestHost(hostname: string): Promise<string[]> {
  if (hostname === 'localhost') return ['127.0.0.1', '::1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

let signer: Promise<TokenSigner> | undefined;
function testSigner(): Promise<TokenSigner> {
  signer ??= generateSigningKeys().then((k) => createTokenSigner(k.privateKey, k.publicKey));
  return signer;
}

export type TestApp = ReturnType<typeof buildApp>;

/** A portal app on a fresh clone of the migrated test database (plans seeded). */
export async function createTestPortal(
  env: Record<string, string> = {},
  database?: TestDatabase,
  overrides: Partial<Pick<Deps, 'resolveHost'>> = {},
) {
  const tdb = database ?? (await createTestDatabase());
  if (!database) await seedPlans(tdb.db);
  const clock = { offsetMs: 0 };
  const tenantDb = createTenantDatabase({ url: tdb.url, max: 5 });
  const metrics = createPortalMetrics({ pools: { main: tdb.pool, tenant: tenantDb.pool } });
  // A replica when the test asks for one, or when the whole run has one (ERP_TEST_REPLICA=1).
  const replicaUrls = (env.DATABASE_REPLICA_URLS ?? tdb.replicaUrl ?? '')
    .split(',')
    .filter(Boolean);
  const reads = replicaUrls.length
    ? createReadRouter({
        primary: tenantDb,
        main: tdb.pool,
        replicaUrls,
        openReplica: (url) => createTenantDatabase({ url, max: 5 }),
        registry: metrics.registry,
        pollMs: 50,
      })
    : undefined;
  const deps: Deps = {
    db: tdb.db,
    pool: tdb.pool,
    tenantDb,
    ...(reads ? { reads } : {}),
    env: parseEnv({
      NODE_ENV: 'test',
      DATABASE_URL: tdb.url,
      SAAS_INTERNAL_API_KEY: INTERNAL_KEY,
      SECRETS_ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
      // Tests name their client address in X-Forwarded-For (the login throttle's tests use many).
      TRUST_PROXY: 'true',
      ...env,
    }),
    tokens: await testSigner(),
    apiKeyHashSecret: Buffer.from('test-api-key-hash-secret-0123456789'),
    logger: createLogger((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent', 'portal'),
    metrics,
    secretBox: createSecretBox(SECRETS_ENCRYPTION_KEY),
    resolveHost: resolveTestHost,
    now: () => new Date(Date.now() + clock.offsetMs),
    ...overrides,
  };
  const app = buildApp(deps);
  // Closing the test database first ends the tenant pool, whose connections are on it.
  const closeDatabase = tdb.close;
  const closable = {
    ...tdb,
    close: async () => {
      await reads?.close();
      await tenantDb.close();
      await closeDatabase();
    },
  };
  return { app, deps, tdb: closable, clock, ...fixtures(app, tdb.pool) };
}

/** Requests that build a realistic world through the public API itself. */
function fixtures(app: TestApp, pool: TestDatabase['pool']) {
  const json = async (res: Response) => {
    const text = await res.text();
    return {
      status: res.status,
      // biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely, each assertion states the shape.
      body: (text ? JSON.parse(text) : undefined) as any,
      headers: res.headers,
    };
  };
  const request = async (path: string, init?: RequestInit) => app.request(path, init);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Provisions a tenant through the internal endpoint; its super-admin's e-mail is admin@<slug>.test. */
  async function provisionTenant(
    plan = 'enterprise',
    slug = `t-${randomBytes(4).toString('hex')}`,
  ) {
    const res = await json(
      await post(
        '/api/v1/internal/tenants',
        {
          slug,
          name: `Tenant ${slug}`,
          plan_code: plan,
          admin: { email: `admin@${slug}.test`, name: 'Admin', password: PASSWORD },
        },
        { 'x-api-key': INTERNAL_KEY },
      ),
    );
    if (res.status !== 201)
      throw new Error(`provision failed: ${res.status} ${JSON.stringify(res.body)}`);
    return {
      slug,
      id: res.body.tenant.id as string,
      adminEmail: `admin@${slug}.test`,
      adminId: res.body.admin.id as string,
    };
  }

  async function login(email: string, password = PASSWORD) {
    const address = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 256)).join('.')}`;
    const res = await json(
      await post('/api/v1/auth/login', { email, password }, { 'x-forwarded-for': address }),
    );
    if (res.status !== 200)
      throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { access_token: string; refresh_token: string };
  }

  /**
   * What the worker does when it mails an invitation (apps/worker mail_invitation): a live link
   * token for it, only its hash stored.
   */
  async function invitationLink(invitationId: string): Promise<string> {
    const token = generatePasswordLinkToken();
    await pool.query(
      `UPDATE invitations SET token_hash = $2, token_expires_at = now() + interval '7 days'
       WHERE id = $1`,
      [invitationId, hashPasswordLinkToken(token)],
    );
    return token;
  }

  /**
   * Invites a person with roles to a tenant (as its super-admin), and accepts as them (a new
   * account with PASSWORD); returns the account and a session token for them.
   */
  async function addUser(tenant: { slug: string; adminEmail: string }, roles: string[]) {
    const admin = await login(tenant.adminEmail);
    const email = `u-${randomBytes(4).toString('hex')}@${tenant.slug}.test`;
    const invited = await json(
      await post(
        '/api/v1/settings/users',
        { email, name: 'User', roles },
        session(admin.access_token, tenant.slug),
      ),
    );
    if (invited.status !== 201)
      throw new Error(`addUser failed: ${invited.status} ${JSON.stringify(invited.body)}`);
    const token = await invitationLink(invited.body.id);
    const accepted = await json(
      await post('/api/v1/auth/invitations/accept', { token, password: PASSWORD }),
    );
    if (accepted.status !== 200)
      throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    const user = await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
    return { id: user.rows[0]!.id, email, token: (await login(email)).access_token };
  }

  /** Creates an API key as the tenant's admin. */
  async function createKey(
    tenant: { slug: string; adminEmail: string },
    scopes: string[],
    days = 30,
    /** Up to the tenant's ceiling (3000): tests that walk every route send more than 600. */
    rateLimitPerMinute?: number,
  ) {
    const admin = await login(tenant.adminEmail);
    const res = await json(
      await post(
        '/api/v1/settings/api-keys',
        {
          name: 'test key',
          scopes,
          expires_at: new Date(Date.now() + days * 86_400_000).toISOString(),
          ...(rateLimitPerMinute ? { rate_limit_per_minute: rateLimitPerMinute } : {}),
        },
        session(admin.access_token, tenant.slug),
      ),
    );
    if (res.status !== 201)
      throw new Error(`createKey failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; key: string; prefix: string };
  }

  return { json, request, post, provisionTenant, login, invitationLink, addUser, createKey };
}

/** Headers of a session request. */
export function session(token: string, tenant?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(tenant ? { 'x-tenant': tenant } : {}) };
}

/** Headers of an API-key request. */
export function apiKey(key: string, tenant?: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...(tenant ? { 'x-tenant-id': tenant } : {}) };
}
