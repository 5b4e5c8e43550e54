import { openDatabase } from '@erp/db';
import { serveApp } from '@erp/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';
import { revokeUserSessions } from './sessions';

/**
 * SPEC §16: sessions under the one rate limiter (per user and tenant, the tenant's ceiling
 * shared with its API keys); SPEC §13: an access token dies with its session, on every instance.
 */
const SESSION_LIMIT = 5;
let portal: Awaited<ReturnType<typeof createTestPortal>>;
/** A second instance: its own pool (and so its own coalescer) and HTTP server, the same database. */
let other: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  portal = await createTestPortal({ SESSION_RATE_LIMIT_PER_MINUTE: String(SESSION_LIMIT) });
  const database = openDatabase({ url: portal.tdb.url, max: 4 });
  const app = buildApp({ ...portal.deps, db: database.db, pool: database.pool });
  const server = await serveApp({ fetch: app.fetch, port: 0, host: '127.0.0.1' });
  other = { url: server.url, close: () => server.close().then(() => database.close()) };
});
afterAll(async () => {
  await other?.close();
  await portal?.tdb.close();
});

const me = (headers: Record<string, string>) => portal.request('/api/v1/me', { headers });
const code = async (res: Response) => ((await res.json()) as { code: string }).code;

describe('sessions are rate limited like API keys', () => {
  it(`${SESSION_LIMIT}/min per user and tenant: the headers on every answer, then 429 with Retry-After`, async () => {
    const tenant = await portal.provisionTenant();
    const { access_token } = await portal.login(tenant.adminEmail);
    const remaining: string[] = [];
    for (let i = 0; i < SESSION_LIMIT; i++) {
      const res = await me(session(access_token, tenant.slug));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(SESSION_LIMIT));
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await me(session(access_token, tenant.slug));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await code(refused)).toBe('limite_depassee');

    // Without a tenant the user's own bucket counts (a request never goes uncounted).
    for (let i = 0; i < SESSION_LIMIT; i++)
      expect((await me(session(access_token))).status).toBe(200);
    const noTenant = await me(session(access_token));
    expect(noTenant.status).toBe(429);
    expect(noTenant.headers.get('x-ratelimit-limit')).toBe(String(SESSION_LIMIT));
  });

  it("the tenant's ceiling counts its sessions and its keys together", async () => {
    const tenant = await portal.provisionTenant();
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const { access_token } = await portal.login(tenant.adminEmail);
    // A ceiling of 4, counted from now on.
    await portal.tdb.db
      .updateTable('tenants')
      .set({ rate_limit_per_minute: 4 })
      .where('id', '=', tenant.id)
      .execute();
    await portal.tdb.db
      .deleteFrom('rate_limit_buckets')
      .where('key', '=', `tenant:${tenant.id}`)
      .execute();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await me(session(access_token, tenant.slug))).status);
      statuses.push((await me(apiKey(key, tenant.slug))).status);
    }
    // Two sessions and two keys fit under 4; the third of each does not, though each alone has room.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe('a session batch counts every operation', () => {
  it(`a batch of ${SESSION_LIMIT} operations takes the session's minute; one more is refused whole`, async () => {
    const tenant = await portal.provisionTenant();
    const { access_token } = await portal.login(tenant.adminEmail);
    const batch = (n: number) =>
      portal.post(
        '/api/v1/batch',
        {
          operations: Array.from({ length: n }, () => ({
            method: 'GET',
            path: '/api/v1/customers',
          })),
        },
        session(access_token, tenant.slug),
      );
    const full = await batch(SESSION_LIMIT);
    expect(full.status).toBe(200);
    expect(full.headers.get('x-ratelimit-remaining')).toBe('0');
    const refused = await batch(1);
    expect(refused.status).toBe(429);
    expect(await code(refused)).toBe('limite_depassee');
  });
});

describe('an access token is checked against its session', () => {
  it('after logout, the old access token is refused on the next request, on another instance too', async () => {
    const tenant = await portal.provisionTenant();
    const { access_token, refresh_token } = await portal.login(tenant.adminEmail);
    const before = await fetch(`${other.url}/api/v1/me`, {
      headers: session(access_token, tenant.slug),
    });
    expect(before.status).toBe(200);
    const out = await portal.post('/api/v1/auth/logout', { refresh_token });
    expect(out.status).toBe(204);
    for (const headers of [session(access_token, tenant.slug), session(access_token)]) {
      const res = await fetch(`${other.url}/api/v1/me`, { headers });
      expect(res.status).toBe(401);
      expect(await code(res)).toBe('jeton_invalide');
      const here = await me(headers);
      expect(here.status).toBe(401);
    }
  });

  it('after a new password (every session of the user revoked), every access token of theirs is refused', async () => {
    const tenant = await portal.provisionTenant();
    const first = await portal.login(tenant.adminEmail);
    const second = await portal.login(tenant.adminEmail);
    expect((await me(session(first.access_token, tenant.slug))).status).toBe(200);
    // What the password reset's confirmation (and an admin's new password) does.
    await revokeUserSessions(portal.deps.db, tenant.adminId, new Date());
    for (const token of [first.access_token, second.access_token]) {
      const res = await fetch(`${other.url}/api/v1/me`, { headers: session(token, tenant.slug) });
      expect(res.status).toBe(401);
      expect(await code(res)).toBe('jeton_invalide');
    }
    // A new login opens a new session, which works.
    const fresh = await portal.login(tenant.adminEmail);
    expect((await me(session(fresh.access_token, tenant.slug))).status).toBe(200);
  });

  it('after the membership is removed, the tenant is refused at once (403), on another instance too', async () => {
    const tenant = await portal.provisionTenant();
    const member = await portal.addUser(tenant, ['sales:reader']);
    expect((await me(session(member.token, tenant.slug))).status).toBe(200);
    await portal.tdb.db
      .deleteFrom('memberships')
      .where('tenant_id', '=', tenant.id)
      .where('user_id', '=', member.id)
      .execute();
    const res = await fetch(`${other.url}/api/v1/me`, {
      headers: session(member.token, tenant.slug),
    });
    expect(res.status).toBe(403);
    expect(await code(res)).toBe('tenant_invalide');
  });
});
