import { type Database, Kysely, PostgresDialect } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let adminToken: string;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('business'); // sales, purchasing, inventory, accounting, crm
  adminToken = (await portal.login(tenant.adminEmail)).access_token;
});
afterAll(() => portal.tdb.close());

const get = (path: string, headers: Record<string, string>) =>
  portal.request(path, { headers }).then(portal.json);
const createKeyAs = (token: string, body: unknown) =>
  portal.post('/api/v1/settings/api-keys', body, session(token, tenant.slug)).then(portal.json);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('creating API keys', () => {
  it('returns the key once; lists never show it', async () => {
    const res = await createKeyAs(adminToken, {
      name: 'erp sync',
      scopes: ['sales:read', 'webhooks'],
      expires_at: inDays(90),
    });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^service_live_[0-9A-Za-z]{12}_[0-9A-Za-z]{36}$/);
    expect(res.body.key).toContain(res.body.prefix);
    const list = await get('/api/v1/settings/api-keys', session(adminToken, tenant.slug));
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === res.body.id);
    expect(listed).toMatchObject({
      name: 'erp sync',
      prefix: res.body.prefix,
      scopes: ['sales:read', 'webhooks'],
      revoked_at: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key.slice(-36));
    // Only a hash is stored.
    const stored = await portal.tdb.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(res.body.key.slice(-36));
  });

  it('requires expires_at, at most one year ahead and in the future', async () => {
    for (const expires_at of [undefined, inDays(367), inDays(-1), 'tomorrow']) {
      const res = await createKeyAs(adminToken, { name: 'k', scopes: ['sales:read'], expires_at });
      expect(res.status, String(expires_at)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
    }
    expect(
      (
        await createKeyAs(adminToken, {
          name: 'k',
          scopes: ['sales:read'],
          expires_at: inDays(365),
        })
      ).status,
    ).toBe(201);
  });

  it('takes a per-key rate limit up to the tenant ceiling, and applies it', async () => {
    const tooHigh = await createKeyAs(adminToken, {
      name: 'k',
      scopes: ['sales:read'],
      expires_at: inDays(30),
      rate_limit_per_minute: 5000,
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.params.issues[0].path).toBe('rate_limit_per_minute');
    const slow = await createKeyAs(adminToken, {
      name: 'slow',
      scopes: ['sales:read'],
      expires_at: inDays(30),
      rate_limit_per_minute: 3,
    });
    expect(slow.status).toBe(201);
    expect(slow.body.rate_limit_per_minute).toBe(3);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await get('/api/v1/me', apiKey(slow.body.key, tenant.slug))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const listed = (await get('/api/v1/settings/api-keys', session(adminToken, tenant.slug))).body
      .data;
    expect(listed.find((k: { id: string }) => k.id === slow.body.id).rate_limit_per_minute).toBe(3);
    expect(listed.find((k: { id: string }) => k.id !== slow.body.id).rate_limit_per_minute).toBe(
      600,
    );
  });

  it('refuses scopes on modules the tenant did not buy, and unknown scopes', async () => {
    const unbought = await createKeyAs(adminToken, {
      name: 'k',
      scopes: ['sales:read', 'hr:read'],
      expires_at: inDays(30),
    });
    expect(unbought.status).toBe(400);
    expect(unbought.body).toMatchObject({
      code: 'requete_invalide',
      params: { scopes: ['hr:read'] },
    });
    const unknown = await createKeyAs(adminToken, {
      name: 'k',
      scopes: ['sales:admin'],
      expires_at: inDays(30),
    });
    expect(unknown.status).toBe(400);
  });

  it('is for admins only, through a session', async () => {
    const editor = await portal.addUser(tenant, ['sales:editor']);
    const res = await createKeyAs(editor.token, {
      name: 'k',
      scopes: ['sales:read'],
      expires_at: inDays(30),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'admin' } });

    const { key } = await portal.createKey(tenant, ['sales:read']);
    const byKey = await portal
      .post(
        '/api/v1/settings/api-keys',
        { name: 'k', scopes: ['sales:read'], expires_at: inDays(30) },
        apiKey(key, tenant.slug),
      )
      .then(portal.json);
    expect(byKey.status).toBe(403);
    expect(byKey.body).toMatchObject({ code: 'acces_refuse', params: { required: 'session' } });
  });
});

describe('using API keys', () => {
  it('authenticates with X-Tenant-ID (slug or UUID) and carries rate-limit headers', async () => {
    const { key } = await portal.createKey(tenant, ['sales:read']);
    for (const ref of [tenant.slug, tenant.id, tenant.id.toUpperCase()]) {
      const res = await get('/api/v1/me', apiKey(key, ref));
      expect(res.status, ref).toBe(200);
      expect(res.body.auth).toBe('api_key');
      expect(res.body.rights).toEqual(['sales:read']);
      expect(res.headers.get('x-ratelimit-limit')).toBe('600');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
  });

  it('needs the tenant header, and it must be the key’s tenant', async () => {
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const missing = await get('/api/v1/me', apiKey(key));
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('tenant_requis');
    expect(missing.headers.get('x-ratelimit-limit')).toBe('600');

    const other = await portal.provisionTenant();
    const foreign = await get('/api/v1/me', apiKey(key, other.slug));
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('tenant_invalide');
    expect(foreign.headers.get('x-ratelimit-remaining')).not.toBeNull();

    const contradictory = await get('/api/v1/me', {
      ...apiKey(key, tenant.slug),
      'x-tenant': other.slug,
    });
    expect(contradictory.status).toBe(400);
    expect(contradictory.body.code).toBe('requete_invalide');
  });

  it('is refused from a browser (Origin header)', async () => {
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const res = await get('/api/v1/me', {
      ...apiKey(key, tenant.slug),
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('origine_interdite');
  });

  it('refuses a key with a broken checksum without any database query', async () => {
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const broken = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    let queries = 0;
    const countingDb = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: portal.tdb.pool }),
      log: () => {
        queries++;
      },
    });
    const app = buildApp({ ...portal.deps, db: countingDb as never });
    const res = await portal.json(
      await app.request('/api/v1/me', { headers: apiKey(broken, tenant.slug) }),
    );
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('cle_api_invalide');
    expect(queries).toBe(0);
    // The counter does count: the genuine key needs queries.
    await app.request('/api/v1/me', { headers: apiKey(key, tenant.slug) });
    expect(queries).toBeGreaterThan(0);
  });

  it('refuses unknown, revoked and expired keys with cle_api_invalide', async () => {
    const { key, id } = await portal.createKey(tenant, ['sales:read']);
    expect((await get('/api/v1/me', apiKey(key, tenant.slug))).status).toBe(200);
    const revoke = await portal.request(`/api/v1/settings/api-keys/${id}`, {
      method: 'DELETE',
      headers: session(adminToken, tenant.slug),
    });
    expect(revoke.status).toBe(204);
    const revoked = await get('/api/v1/me', apiKey(key, tenant.slug));
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('cle_api_invalide');

    const expiring = await portal.createKey(tenant, ['sales:read']);
    await portal.tdb.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await get('/api/v1/me', apiKey(expiring.key, tenant.slug))).body.code).toBe(
      'cle_api_invalide',
    );

    const { generateApiKey } = await import('../auth');
    expect((await get('/api/v1/me', apiKey(generateApiKey().key, tenant.slug))).body.code).toBe(
      'cle_api_invalide',
    );
  });

  it('narrows at once when the holder loses a role, and dies with the membership', async () => {
    const other = await portal.provisionTenant('business');
    const otherAdmin = (await portal.login(other.adminEmail)).access_token;
    // A second admin holds the key; the first admin then changes the holder's roles.
    const holder = await portal.addUser(other, ['admin']);
    const { key } = await portal.createKey({ slug: other.slug, adminEmail: holder.email }, [
      'sales:write',
      'crm:read',
    ]);
    const rights = async () => (await get('/api/v1/me', apiKey(key, other.slug))).body.rights;
    expect(await rights()).toEqual(['crm:read', 'sales:read', 'sales:write']);

    const patch = (roles: string[]) =>
      portal.request(`/api/v1/settings/users/${holder.id}`, {
        method: 'PATCH',
        headers: { ...session(otherAdmin, other.slug), 'content-type': 'application/json' },
        body: JSON.stringify({ roles }),
      });
    expect((await patch(['sales:reader'])).status).toBe(200);
    expect(await rights()).toEqual(['sales:read']);

    const remove = await portal.request(`/api/v1/settings/users/${holder.id}`, {
      method: 'DELETE',
      headers: session(otherAdmin, other.slug),
    });
    expect(remove.status).toBe(204);
    expect((await get('/api/v1/me', apiKey(key, other.slug))).body.code).toBe('cle_api_invalide');
  });

  it('rolls a key: the new one works, the old one lives for the grace period only', async () => {
    const old = await portal.createKey(tenant, ['sales:read']);
    const roll = (id: string, hours: number) =>
      portal
        .post(
          `/api/v1/settings/api-keys/${id}/roll`,
          { expire_previous_in_hours: hours },
          session(adminToken, tenant.slug),
        )
        .then(portal.json);
    const rolled = await roll(old.id, 2);
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({ name: 'test key', scopes: ['sales:read'] });
    expect((await get('/api/v1/me', apiKey(rolled.body.key, tenant.slug))).status).toBe(200);
    expect((await get('/api/v1/me', apiKey(old.key, tenant.slug))).status).toBe(200);
    const stored = await portal.tdb.db
      .selectFrom('api_keys')
      .select('expires_at')
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    expect(Math.abs(stored.expires_at.getTime() - (Date.now() + 2 * 3600_000))).toBeLessThan(
      60_000,
    );

    const immediate = await roll(rolled.body.id, 0);
    expect(immediate.status).toBe(201);
    expect((await get('/api/v1/me', apiKey(rolled.body.key, tenant.slug))).status).toBe(401);
    expect((await roll(rolled.body.id, 0)).status).toBe(404);
    expect((await roll(old.id, 200)).status).toBe(400);
  });

  it('cannot touch another tenant’s keys', async () => {
    const other = await portal.provisionTenant();
    const foreignKey = await portal.createKey(other, ['sales:read']);
    const res = await portal.request(`/api/v1/settings/api-keys/${foreignKey.id}`, {
      method: 'DELETE',
      headers: session(adminToken, tenant.slug),
    });
    expect(res.status).toBe(404);
    expect((await get('/api/v1/me', apiKey(foreignKey.key, other.slug))).status).toBe(200);
  });
});
