import { openDatabase } from '@erp/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal } from '../../test/harness';
import { buildApp } from '../app';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(() => portal.tdb.close());

describe('concurrent requests of one key', () => {
  it('share database calls, and still get exactly the key’s budget with consistent headers', async () => {
    const tenant = await portal.provisionTenant();
    const { key, id } = await portal.createKey(tenant, ['sales:read']);
    await portal.tdb.db
      .updateTable('api_keys')
      .set({ rate_limit_per_minute: 20 })
      .where('id', '=', id)
      .execute();
    // A pool of its own (the coalescer is per pool), whose authentication calls are counted.
    const database = openDatabase({ url: portal.tdb.url, max: 4 });
    let calls = 0;
    const query = database.pool.query.bind(database.pool);
    database.pool.query = ((config: { name?: string }, ...rest: unknown[]) => {
      if (config?.name === 'authenticate_api_key_units') calls++;
      return (query as (...a: unknown[]) => unknown)(config, ...rest);
    }) as typeof database.pool.query;
    const app = buildApp({ ...portal.deps, db: database.db, pool: database.pool });

    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.request('/api/v1/me', { headers: apiKey(key, tenant.slug) }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(20);
    expect(limited).toHaveLength(30);
    expect(calls).toBeLessThan(50);
    // Each allowed request sees its own remaining budget: 19, 18, ... 0, each once.
    expect(
      ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const r of limited) {
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    await database.close();
  });

  it('never lets a wrong secret ride on a valid key’s call', async () => {
    const tenant = await portal.provisionTenant();
    const { key } = await portal.createKey(tenant, ['sales:read']);
    const { generateApiKey } = await import('./api-key-format');
    // Same prefix, valid checksum, another secret: it reaches the database, in a call of its own.
    const forged = generateApiKey(
      key.slice('service_live_'.length, 'service_live_'.length + 12),
    ).key;
    expect(forged.slice(0, 26)).toBe(key.slice(0, 26));
    expect(forged).not.toBe(key);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        portal.request('/api/v1/me', { headers: apiKey(key, tenant.slug) }),
      ),
      portal.request('/api/v1/me', { headers: apiKey(forged, tenant.slug) }),
    ]);
    expect(results.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results[5]!.status).toBe(401);
  });
});
