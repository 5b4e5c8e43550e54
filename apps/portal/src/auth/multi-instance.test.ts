import { openDatabase } from '@erp/db';
import { serveApp } from '@erp/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';

/** Two portal instances, each with its own pool and HTTP server, sharing one database. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
const instances: { url: string; close: () => Promise<void> }[] = [];

beforeAll(async () => {
  portal = await createTestPortal();
  for (let i = 0; i < 2; i++) {
    const database = openDatabase({ url: portal.tdb.url, max: 8 });
    const app = buildApp({ ...portal.deps, db: database.db, pool: database.pool });
    const server = await serveApp({ fetch: app.fetch, port: 0, host: '127.0.0.1' });
    instances.push({
      url: server.url,
      close: () => server.close().then(() => database.close()),
    });
  }
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.close()));
  await portal.tdb.close();
});

describe('several portal instances', () => {
  it('a key revoked through one instance is refused by the other on the next request', async () => {
    const tenant = await portal.provisionTenant();
    const admin = await portal.login(tenant.adminEmail);
    const { key, id } = await portal.createKey(tenant, ['sales:read']);
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    expect((await fetch(`${b.url}/api/v1/me`, { headers: apiKey(key, tenant.slug) })).status).toBe(
      200,
    );

    const revoke = await fetch(`${a.url}/api/v1/settings/api-keys/${id}`, {
      method: 'DELETE',
      headers: session(admin.access_token, tenant.slug),
    });
    expect(revoke.status).toBe(204);
    const next = await fetch(`${b.url}/api/v1/me`, { headers: apiKey(key, tenant.slug) });
    expect(next.status).toBe(401);
    expect(((await next.json()) as { code: string }).code).toBe('cle_api_invalide');
  });

  it('650 requests of a 600/min key over both instances: exactly 600 pass, 50 get 429 with Retry-After', async () => {
    const tenant = await portal.provisionTenant();
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const results: { status: number; retryAfter: string | null; remaining: string | null }[] = [];
    let next = 0;
    // 16 concurrent clients alternate between the instances until 650 requests are sent.
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 650) {
          const n = next++;
          const target = instances[n % 2]!;
          const res = await fetch(`${target.url}/api/v1/me`, { headers: apiKey(key, tenant.slug) });
          await res.arrayBuffer();
          results.push({
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            remaining: res.headers.get('x-ratelimit-remaining'),
          });
        }
      }),
    );
    expect(results).toHaveLength(650);
    expect(results.filter((r) => r.status === 200)).toHaveLength(600);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(50);
    for (const r of limited) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(61);
      expect(r.remaining).toBe('0');
    }
  });

  it('a tenant ceiling stops a tenant multiplying its budget with more keys', async () => {
    const tenant = await portal.provisionTenant();
    await portal.tdb.db
      .updateTable('tenants')
      .set({ rate_limit_per_minute: 30 })
      .where('id', '=', tenant.id)
      .execute();
    const keys = [
      await portal.createKey(tenant, ['sales:read']),
      await portal.createKey(tenant, ['sales:read']),
    ];
    // The admin's session requests that made the keys count toward the ceiling too (SPEC §16):
    // counted from here.
    await portal.tdb.db
      .deleteFrom('rate_limit_buckets')
      .where('key', '=', `tenant:${tenant.id}`)
      .execute();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${instances[i % 2]!.url}/api/v1/me`, {
        headers: apiKey(keys[i % 2]!.key, tenant.slug),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});
