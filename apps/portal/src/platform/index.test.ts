import { MODULES } from '@erp/contract';
// The committed document: the contract's own test keeps it equal to what the registry builds,
// so these tests need not build 1 400 operations again.
import committedOpenApi from '@erp/contract/openapi.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, INTERNAL_KEY, PASSWORD } from '../../test/harness';
import { buildApp } from '../app';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

const internal = (path: string, body: unknown, key: string | null = INTERNAL_KEY) =>
  portal.post(path, body, key === null ? {} : { 'x-api-key': key }).then(portal.json);

describe('public plans', () => {
  it('lists the plans at both paths, without authentication', async () => {
    const a = await portal.json(await portal.request('/api/v1/public/subscription-plans'));
    const b = await portal.json(await portal.request('/api/v1/public/plans'));
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body.data.map((p: { code: string }) => p.code)).toEqual([
      'starter',
      'business',
      'enterprise',
    ]);
    expect(a.body.data[0]).toMatchObject({
      currency: 'EUR',
      monthly_price_cents: 1900,
      modules: ['sales', 'crm'],
    });
  });

  it('answers 404 when PUBLIC_ENDPOINTS_ENABLED is false', async () => {
    const closed = buildApp({
      ...portal.deps,
      env: { ...portal.deps.env, PUBLIC_ENDPOINTS_ENABLED: false },
    });
    const res = await portal.json(await closed.request('/api/v1/public/subscription-plans'));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('introuvable');
  });
});

describe('internal endpoints', () => {
  it('need X-API-Key: missing is non_authentifie, wrong is cle_api_invalide', async () => {
    const body = {
      slug: 'acme',
      name: 'Acme',
      plan_code: 'starter',
      admin: { email: 'a@acme.test', name: 'A' },
    };
    expect((await internal('/api/v1/internal/tenants', body, null)).body.code).toBe(
      'non_authentifie',
    );
    const wrong = await internal('/api/v1/internal/tenants', body, `${INTERNAL_KEY}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('cle_api_invalide');
    const count = await portal.tdb.db
      .selectFrom('tenants')
      .select((e) => e.fn.countAll().as('n'))
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('are closed when SAAS_INTERNAL_API_KEY is not configured', async () => {
    const { SAAS_INTERNAL_API_KEY: _, ...env } = portal.deps.env;
    const app = buildApp({ ...portal.deps, env: env as typeof portal.deps.env });
    const res = await app.request('/api/v1/internal/tenants', {
      method: 'POST',
      headers: { 'x-api-key': INTERNAL_KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('provision a tenant whose admin can log in; a generated password is shown once; slugs are unique', async () => {
    const res = await internal('/api/v1/internal/tenants', {
      slug: 'globex',
      name: 'Globex',
      plan_code: 'business',
      admin: { email: 'boss@globex.test', name: 'Boss' },
    });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toMatchObject({
      slug: 'globex',
      plan_code: 'business',
      modules: ['sales', 'purchasing', 'inventory', 'accounting', 'crm', 'support'],
    });
    expect(res.body.admin.password).toMatch(/^[\w-]{20,}$/);
    expect(
      (await portal.login('boss@globex.test', res.body.admin.password)).access_token,
    ).toBeTruthy();

    const again = await internal('/api/v1/internal/tenants', {
      slug: 'globex',
      name: 'G2',
      plan_code: 'starter',
      admin: { email: 'x@globex.test', name: 'X', password: PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflit', params: { field: 'slug' } });
    const unknownPlan = await internal('/api/v1/internal/tenants', {
      slug: 'initech',
      name: 'I',
      plan_code: 'platinum',
      admin: { email: 'x@initech.test', name: 'X' },
    });
    expect(unknownPlan.status).toBe(400);
  });

  it('apply subscription changes to the tenant’s plan and modules, idempotently', async () => {
    const tenant = await portal.provisionTenant('starter');
    const change = (status: string, plan_code = 'enterprise') =>
      internal('/api/v1/internal/subscriptions', {
        tenant: tenant.slug,
        plan_code,
        status,
        provider: 'stripe',
        provider_subscription_id: `sub_${tenant.slug}`,
        current_period_end: '2027-01-01T00:00:00Z',
      });
    const up = await change('active');
    expect(up.status).toBe(200);
    expect(up.body.tenant_modules).toHaveLength(MODULES.length);
    expect((await change('active')).body.id).toBe(up.body.id);
    const modules = async () =>
      (
        await portal.tdb.db
          .selectFrom('tenants')
          .select('modules')
          .where('id', '=', tenant.id)
          .executeTakeFirstOrThrow()
      ).modules;
    expect(await modules()).toHaveLength(MODULES.length);
    expect((await change('canceled')).body.tenant_modules).toEqual([]);
    expect(await modules()).toEqual([]);
    const dashes = await internal('/api/v1/internal/subscriptions', {
      tenant: '-'.repeat(36),
      plan_code: 'starter',
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: 'sub_y',
    });
    expect(dashes.status).toBe(404);
    expect(dashes.body.code).toBe('introuvable');
    const missing = await internal('/api/v1/internal/subscriptions', {
      tenant: 'no-such',
      plan_code: 'starter',
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: 'sub_x',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('introuvable');
  });
});

describe('idempotent provisioning (Idempotency-Key)', () => {
  const provision = (
    key: string | undefined,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    portal
      .post('/api/v1/internal/tenants', body, {
        'x-api-key': INTERNAL_KEY,
        ...(key === undefined ? {} : { 'Idempotency-Key': key }),
        ...headers,
      })
      .then(portal.json);
  const body = (slug: string, extra: Record<string, unknown> = {}) => ({
    slug,
    name: `Tenant ${slug}`,
    plan_code: 'business',
    admin: { email: `owner@${slug}.test`, name: 'Owner' },
    ...extra,
  });
  const count = async (table: 'tenants' | 'users' | 'memberships' | 'invitations') => {
    const row = await portal.tdb.db
      .selectFrom(table)
      .select((e) => e.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const counts = async () => ({
    tenants: await count('tenants'),
    users: await count('users'),
    memberships: await count('memberships'),
    invitations: await count('invitations'),
  });
  const tenantRow = (slug: string) =>
    portal.tdb.db
      .selectFrom('tenants')
      .select(['name', 'plan_code', 'provisioning_key', 'updated_at'])
      .where('slug', '=', slug)
      .executeTakeFirst();

  it('stores the key; a retry answers 200 with the same tenant and admin, no password, nothing written', async () => {
    const first = await provision('cs_test_retry-1', body('retry-1'));
    expect(first.status).toBe(201);
    expect(first.body.admin.password).toMatch(/^[\w-]{20,}$/);
    expect(await tenantRow('retry-1')).toMatchObject({ provisioning_key: 'cs_test_retry-1' });
    const before = await counts();
    const stored = await tenantRow('retry-1');

    // A retry may carry a stale name or plan: the tenant as it is wins, nothing changes.
    const again = await provision(
      'cs_test_retry-1',
      body('retry-1', { name: 'Renamed', plan_code: 'starter' }),
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      tenant: first.body.tenant,
      admin: { id: first.body.admin.id, email: 'owner@retry-1.test' },
    });
    expect(await counts()).toEqual(before);
    expect(await tenantRow('retry-1')).toEqual(stored);
  });

  it('answers a retry with the tenant as it is now (after a subscription change)', async () => {
    const first = await provision('key-plan-change', body('retry-2'));
    await internal('/api/v1/internal/subscriptions', {
      tenant: 'retry-2',
      plan_code: 'enterprise',
      status: 'active',
      provider: 'stripe',
      provider_subscription_id: 'sub_retry_2',
    });
    const again = await provision('key-plan-change', body('retry-2'));
    expect(again.status).toBe(200);
    expect(again.body.tenant).toMatchObject({ id: first.body.tenant.id, plan_code: 'enterprise' });
    expect(again.body.tenant.modules).toHaveLength(MODULES.length);
  });

  it('refuses a known key with another slug: 409 conflit, no tenant created', async () => {
    await provision('key-one-slug', body('retry-3'));
    const before = await counts();
    const other = await provision('key-one-slug', body('retry-3-other'));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'conflit', params: { field: 'idempotency-key' } });
    expect(await tenantRow('retry-3-other')).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it('refuses a slug taken without a key, or with another key: 409 conflit', async () => {
    expect((await provision(undefined, body('retry-4'))).status).toBe(201);
    expect((await provision('key-a', body('retry-5'))).status).toBe(201);
    const before = await counts();
    for (const [key, slug] of [
      ['key-b', 'retry-4'],
      ['key-c', 'retry-5'],
      [undefined, 'retry-5'],
    ] as const) {
      const res = await provision(key, body(slug));
      expect(res.status, `${key} ${slug}`).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflit', params: { field: 'slug', slug } });
    }
    expect(await counts()).toEqual(before);
    expect(await tenantRow('retry-4')).toMatchObject({ provisioning_key: null });
    expect(await tenantRow('retry-5')).toMatchObject({ provisioning_key: 'key-a' });
  });

  it('answers concurrent identical requests with one 201 and 200s, never a 500', async () => {
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => provision('key-race', body('race-1'))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((a) => a.body.tenant.id));
    expect(ids.size).toBe(1);
    expect(new Set(answers.map((a) => a.body.admin.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.admin.password)).toHaveLength(1);
    expect(await counts()).toEqual({
      tenants: before.tenants + 1,
      users: before.users + 1,
      memberships: before.memberships + 1,
      invitations: before.invitations,
    });
  });

  it('answers concurrent requests without a key with one 201 and conflits, never a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => provision(undefined, body('race-2'))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('gives tenants provisioned together for one new e-mail one shared admin (insert races resolved by ON CONFLICT)', async () => {
    const before = await counts();
    const owner = { email: 'Shared.Owner@race.test', name: 'Shared Owner' };
    const answers = await Promise.all(
      ['race-3a', 'race-3b', 'race-3c', 'race-3d', 'race-3e', 'race-3f'].map((slug) =>
        provision(undefined, body(slug, { admin: owner })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.admin.id)).size).toBe(1);
    // Every answer carries a generated password (none says whether the account existed); only
    // the one whose request created the user set it.
    expect(answers.filter((a) => a.body.admin.password)).toHaveLength(6);
    // The request that made the account made its membership; for the others the account
    // already existed, so it is invited to their tenants (SPEC §3).
    expect(await counts()).toEqual({
      tenants: before.tenants + 6,
      users: before.users + 1,
      memberships: before.memberships + 1,
      invitations: before.invitations + 5,
    });
  });

  it('refuses a malformed Idempotency-Key: 400 requete_invalide, nothing created', async () => {
    const before = await counts();
    for (const key of ['', 'a b', 'k'.repeat(201), 'clé']) {
      const res = await provision(key, body('retry-bad-key'));
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues[0]).toMatchObject({ location: 'header' });
    }
    expect(await counts()).toEqual(before);
    expect((await provision('k'.repeat(200), body('retry-long-key'))).status).toBe(201);
  });
});

describe('provisioning for an e-mail that already has an account (SPEC §3)', () => {
  const provision = (body: Record<string, unknown>) =>
    internal('/api/v1/internal/tenants', { name: 'Tenant', plan_code: 'business', ...body });
  const account = (email: string) =>
    portal.tdb.db
      .selectFrom('users')
      .select(['name', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

  it('never touches its password or name, and answers exactly as for a new account', async () => {
    const email = 'cfo@known-account.test';
    const first = await provision({ slug: 'known-1', admin: { email, name: 'Carla Real' } });
    expect(first.status).toBe(201);
    const before = await account(email);

    const given = await provision({
      slug: 'known-2',
      admin: { email, name: 'Typed By Someone Else', password: 'Attacker-pass-123' },
    });
    const generated = await provision({ slug: 'known-3', admin: { email, name: 'Another Name' } });
    expect(await account(email)).toEqual(before);
    expect(
      await portal
        .post(
          '/api/v1/auth/login',
          { email, password: 'Attacker-pass-123' },
          { 'x-forwarded-for': '198.51.100.77' },
        )
        .then((r) => r.status),
    ).toBe(401);
    // The same answers as for new e-mails: no oracle in the shape.
    const fresh = await provision({
      slug: 'fresh-2',
      admin: { email: 'nobody@fresh.test', name: 'N', password: 'Fresh-pass-12345' },
    });
    const freshGenerated = await provision({
      slug: 'fresh-3',
      admin: { email: 'new@fresh.test', name: 'N' },
    });
    const shape = (r: { status: number; body: { admin: Record<string, unknown> } }) => [
      r.status,
      Object.keys(r.body.admin).sort(),
    ];
    expect(shape(given)).toEqual(shape(fresh));
    expect(shape(generated)).toEqual(shape(freshGenerated));
    expect(generated.body.admin.password).toMatch(/^[\w-]{20,}$/);
    // The existing account is invited to the new tenants, not made a member of them.
    const tenants = await portal.tdb.db
      .selectFrom('tenants as t')
      .leftJoin('memberships as m', 'm.tenant_id', 't.id')
      .leftJoin('invitations as i', 'i.tenant_id', 't.id')
      .select(['t.slug', 'm.user_id', 'i.email', 'i.roles'])
      .where('t.slug', 'in', ['known-2', 'known-3'])
      .orderBy('t.slug')
      .execute();
    expect(tenants).toEqual([
      { slug: 'known-2', user_id: null, email, roles: ['super-admin'] },
      { slug: 'known-3', user_id: null, email, roles: ['super-admin'] },
    ]);
  });
});

describe('provisioning a purchase (on_slug_taken: suffix)', () => {
  const provision = (slug: string, key: string, email: string) =>
    portal
      .post(
        '/api/v1/internal/tenants',
        {
          slug,
          name: 'Bought',
          plan_code: 'starter',
          admin: { email, name: 'Buyer' },
          on_slug_taken: 'suffix',
        },
        { 'x-api-key': INTERNAL_KEY, 'Idempotency-Key': key },
      )
      .then(portal.json);

  it('a taken slug gets a suffix, never the existing tenant; a retry answers the same tenant', async () => {
    const existing = await provision('taken', 'stripe:subscription:sub_a', 'a@taken.test');
    expect(existing.status).toBe(201);
    const second = await provision('taken', 'stripe:subscription:sub_b', 'b@taken.test');
    expect(second.status).toBe(201);
    expect(second.body.tenant.slug).toBe('taken-2');
    expect(second.body.tenant.id).not.toBe(existing.body.tenant.id);
    const third = await provision('taken', 'stripe:subscription:sub_c', 'c@taken.test');
    expect(third.body.tenant.slug).toBe('taken-3');
    const retry = await provision('taken', 'stripe:subscription:sub_b', 'b@taken.test');
    expect(retry.status).toBe(200);
    expect(retry.body.tenant.id).toBe(second.body.tenant.id);
    const members = await portal.tdb.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.email')
      .where('m.tenant_id', '=', existing.body.tenant.id)
      .execute();
    expect(members).toEqual([{ email: 'a@taken.test' }]);
  });
});

describe('system routes', () => {
  it('serves the contract’s OpenAPI document', async () => {
    const res = await portal.json(await portal.request('/api/v1/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(committedOpenApi);
  });

  it('answers health and readiness', async () => {
    expect((await portal.json(await portal.request('/api/v1/health'))).body).toEqual({
      status: 'ok',
    });
    expect((await portal.json(await portal.request('/api/v1/ready'))).body).toEqual({
      status: 'ok',
    });
  });

  it('implements every route of the contract', () => {
    const implemented = new Set(portal.app.routes.map((r) => `${r.method} ${r.path}`));
    for (const [path, item] of Object.entries(committedOpenApi.paths)) {
      for (const method of Object.keys(item as object)) {
        const honoPath = path.replace(/\{(\w+)\}/g, ':$1');
        expect(implemented.has(`${method.toUpperCase()} ${honoPath}`), `${method} ${path}`).toBe(
          true,
        );
      }
    }
  });
});
