import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

async function takeAll(keys: string[], limits: number[], units: number, windowMs = 60_000) {
  const { rows } = await sql<{ granted: boolean; remaining: number; reset_ms: string | null }>`
    SELECT * FROM rate_limit_take_all(${keys}::text[], ${limits}::int[], ${windowMs}, ${units})
  `.execute(tdb.db);
  return rows[0]!;
}

async function total(key: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    SELECT total FROM rate_limit_buckets WHERE key = ${key}
  `.execute(tdb.db);
  return rows[0]?.total ?? 0;
}

describe('rate_limit_take_all', () => {
  it('grants every unit asked, or none: a refusal spends nothing of the room left', async () => {
    expect(await takeAll(['all-a'], [10], 7)).toMatchObject({ granted: true, remaining: 3 });
    const refused = await takeAll(['all-a'], [10], 4);
    expect(refused).toMatchObject({ granted: false, remaining: 3 });
    // rate_limit_take_units alone would have taken the 3 units that fit.
    expect(await total('all-a')).toBe(7);
    expect(await takeAll(['all-a'], [10], 3)).toMatchObject({ granted: true, remaining: 0 });
  });

  it('takes from every bucket or from none', async () => {
    await takeAll(['all-tenant'], [5], 4);
    expect((await takeAll(['all-key', 'all-tenant'], [100, 5], 2)).granted).toBe(false);
    expect(await total('all-key')).toBe(0);
    expect(await total('all-tenant')).toBe(4);
  });

  it('says when enough units come back, not merely the first one', async () => {
    // 600 ms window: 10 ms slots, a unit counts for 600–610 ms. 2 units now, 2 more ~300 ms
    // later: asking 2 waits for the first pair, asking 3 for the second pair too.
    const start = Date.now();
    await takeAll(['all-slide'], [4], 2, 600);
    await new Promise((r) => setTimeout(r, 300));
    await takeAll(['all-slide'], [4], 2, 600);
    const two = await takeAll(['all-slide'], [4], 2, 600);
    const three = await takeAll(['all-slide'], [4], 3, 600);
    expect(two.granted).toBe(false);
    expect(three.granted).toBe(false);
    expect(Number(two.reset_ms) - start).toBeGreaterThanOrEqual(590);
    expect(Number(two.reset_ms) - start).toBeLessThan(880);
    expect(Number(three.reset_ms) - start).toBeGreaterThanOrEqual(890);
    await new Promise((r) => setTimeout(r, Math.max(0, Number(two.reset_ms) - Date.now() + 20)));
    expect((await takeAll(['all-slide'], [4], 3, 600)).granted).toBe(false);
    expect((await takeAll(['all-slide'], [4], 2, 600)).granted).toBe(true);
  });

  it('answers no reset when the units asked exceed a bucket’s limit: no wait makes room', async () => {
    const refused = await takeAll(['all-small'], [5], 6);
    expect(refused).toMatchObject({ granted: false, remaining: 5, reset_ms: null });
    expect(await total('all-small')).toBe(0);
  });
});

describe('migration 2026-11-24-0020-batch-units', () => {
  it('goes down and up again', async () => {
    const migration = migrations['2026-11-24-0020-batch-units']!;
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as any;
    await migration.down!(db);
    await expect(takeAll(['down'], [5], 1)).rejects.toThrow(/rate_limit_take_all/);
    await migration.up(db);
    expect((await takeAll(['down'], [5], 1)).granted).toBe(true);
  });
});
