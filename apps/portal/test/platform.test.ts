import { buildOpenApiDocument } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createTestPortal, INTERNAL_KEY, PASSWORD } from './harness';

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
      modules: ['sales', 'purchasing', 'inventory', 'accounting', 'crm'],
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
    expect(up.body.tenant_modules).toHaveLength(8);
    expect((await change('active')).body.id).toBe(up.body.id);
    const modules = async () =>
      (
        await portal.tdb.db
          .selectFrom('tenants')
          .select('modules')
          .where('id', '=', tenant.id)
          .executeTakeFirstOrThrow()
      ).modules;
    expect(await modules()).toHaveLength(8);
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

describe('system routes', () => {
  it('serves the contract’s OpenAPI document', async () => {
    const res = await portal.json(await portal.request('/api/v1/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
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
    const document = buildOpenApiDocument();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const method of Object.keys(item as object)) {
        const honoPath = path.replace(/\{(\w+)\}/g, ':$1');
        expect(implemented.has(`${method.toUpperCase()} ${honoPath}`), `${method} ${path}`).toBe(
          true,
        );
      }
    }
  });
});
