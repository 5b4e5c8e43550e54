import { sql } from '@erp/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushTo, resetSync, snapshot, syncTables, T1, T2, T3 } from './erp-sync-fixtures';
import { createTestLanding, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({ ERP_SYNC_STALE_AFTER_SECONDS: '600' });
});
afterAll(() => landing.close());
beforeEach(() => resetSync(landing));

async function push(body: unknown) {
  const response = await pushTo(landing, body);
  expect(response.status).toBe(200);
  return response.json();
}
const tables = () => syncTables(landing);
const health = async () =>
  (await (await landing.app.request('/api/erp-sync/health')).json()) as Record<string, unknown>;

describe('POST /api/erp-sync: storing snapshots', () => {
  it('applies a first push: tenants, plans in push order, metadata', async () => {
    expect(await push(snapshot())).toEqual({
      status: 'applied',
      counts: { tenants: 2, plans: 2, metadata: 2 },
    });
    const { rows: plans } =
      await sql`SELECT code, sort_order, max_users, modules FROM landing.plans ORDER BY sort_order`.execute(
        landing.db,
      );
    expect(plans).toEqual([
      { code: 'starter', sort_order: 1, max_users: 3, modules: ['sales'] },
      { code: 'business', sort_order: 2, max_users: null, modules: ['sales', 'inventory'] },
    ]);
    const { rows: tenants } =
      await sql`SELECT id, slug, plan_code, modules FROM landing.tenants ORDER BY slug`.execute(
        landing.db,
      );
    expect(tenants).toEqual([
      { id: T1, slug: 'acme', plan_code: 'business', modules: ['sales', 'inventory'] },
      { id: T2, slug: 'globex', plan_code: null, modules: [] },
    ]);
    const { rows: metadata } =
      await sql`SELECT key, value FROM landing.metadata ORDER BY key`.execute(landing.db);
    expect(metadata).toEqual([
      { key: 'features', value: { sso: true } },
      { key: 'product', value: 'ERP' },
    ]);
  });

  it('the same push twice leaves identical tables; only last_sync_at and pushes_received move', async () => {
    await push(snapshot());
    const first = await tables();
    landing.clock.offsetMs = 60_000;
    // Same content, read later and listed in another order: still unchanged.
    const again = snapshot({ generated_at: '2026-11-23T10:05:00.000Z' });
    again.tenants.reverse();
    expect(await push(again)).toEqual({
      status: 'unchanged',
      counts: { tenants: 2, plans: 2, metadata: 2 },
    });
    const second = await tables();
    expect({ ...second, state: undefined }).toEqual({ ...first, state: undefined });
    expect(second.state).toMatchObject({
      pushes_received: 2,
      generated_at: first.state.generated_at,
      payload_sha256: first.state.payload_sha256,
    });
    expect(second.state.last_sync_at).not.toBe(first.state.last_sync_at);
  });

  it('ignores a push older than the stored one (stale), whatever it holds', async () => {
    await push(snapshot());
    const before = await tables();
    const older = snapshot({
      generated_at: '2026-11-23T09:00:00.000Z',
      tenants: [],
      plans: [],
      metadata: {},
    });
    expect(await push(older)).toEqual({
      status: 'stale',
      counts: { tenants: 2, plans: 2, metadata: 2 },
    });
    expect(await tables()).toEqual(before);
  });

  it('replaces the snapshot: removed tenants, plans and keys disappear; changes and slug swaps apply', async () => {
    await push(snapshot());
    const base = snapshot();
    const next = snapshot({
      generated_at: '2026-11-23T10:10:00.000Z',
      tenants: [
        { ...base.tenants[0]!, slug: 'globex', name: 'Acme renamed' },
        { ...base.tenants[1]!, id: T3, slug: 'acme', plan_code: 'starter' },
      ],
      plans: [{ ...base.plans[1]!, monthly_price_cents: 5900 }],
      metadata: { product: 'ERP 2' },
    });
    expect(await push(next)).toEqual({
      status: 'applied',
      counts: { tenants: 2, plans: 1, metadata: 1 },
    });
    const { rows } =
      await sql`SELECT id, slug, name, plan_code FROM landing.tenants ORDER BY id`.execute(
        landing.db,
      );
    expect(rows).toEqual([
      { id: T1, slug: 'globex', name: 'Acme renamed', plan_code: 'business' },
      { id: T3, slug: 'acme', name: 'Globex', plan_code: 'starter' },
    ]);
    expect(rows.map((r) => (r as { id: string }).id)).not.toContain(T2);
    const { rows: plans } =
      await sql`SELECT code, monthly_price_cents, sort_order FROM landing.plans`.execute(
        landing.db,
      );
    expect(plans).toEqual([{ code: 'business', monthly_price_cents: 5900, sort_order: 1 }]);
    const { rows: metadata } = await sql`SELECT key, value FROM landing.metadata`.execute(
      landing.db,
    );
    expect(metadata).toEqual([{ key: 'product', value: 'ERP 2' }]);
  });

  it('an empty snapshot empties the tables', async () => {
    await push(snapshot());
    const empty = snapshot({
      generated_at: '2026-11-23T11:00:00.000Z',
      tenants: [],
      plans: [],
      metadata: {},
    });
    expect(await push(empty)).toMatchObject({
      status: 'applied',
      counts: { tenants: 0, plans: 0, metadata: 0 },
    });
    expect(await tables()).toMatchObject({ tenants: null, plans: null, metadata: null });
  });
});

describe('GET /api/erp-sync/health', () => {
  it('is `never` before the first push, `ok` after, `stale` once ERP_SYNC_STALE_AFTER_SECONDS pass', async () => {
    expect(await health()).toEqual({
      status: 'never',
      last_sync_at: null,
      generated_at: null,
      pushes_received: 0,
      counts: { tenants: 0, plans: 0, metadata: 0 },
    });
    await push(snapshot());
    const ok = await health();
    expect(ok).toMatchObject({
      status: 'ok',
      generated_at: '2026-11-23T10:00:00.000Z',
      pushes_received: 1,
      counts: { tenants: 2, plans: 2, metadata: 2 },
    });
    expect(Date.parse(String(ok.last_sync_at))).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(ok)).not.toMatch(/Acme|acme|Globex/);
    landing.clock.offsetMs = 599_000;
    expect(await health()).toMatchObject({ status: 'ok' });
    landing.clock.offsetMs = 601_000;
    expect(await health()).toMatchObject({ status: 'stale', pushes_received: 1 });
  });
});
