import type { ErpSyncPush } from '@erp/contract';
import { sql } from '@erp/db';
import { SYNC_API_KEY, type TestLanding } from './harness';

export const T1 = '0190a0b0-0000-7000-8000-000000000001';
export const T2 = '0190a0b0-0000-7000-8000-000000000002';
export const T3 = '0190a0b0-0000-7000-8000-000000000003';

/** A two-tenant, two-plan snapshot as the worker pushes it. */
export function snapshot(overrides: Partial<ErpSyncPush> = {}): ErpSyncPush {
  return {
    generated_at: '2026-11-23T10:00:00.000Z',
    tenants: [
      {
        id: T1,
        slug: 'acme',
        name: 'Acme Secret Name',
        plan_code: 'business',
        modules: ['sales', 'inventory'],
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: T2,
        slug: 'globex',
        name: 'Globex',
        plan_code: null,
        modules: [],
        created_at: '2026-02-01T00:00:00.000Z',
      },
    ],
    plans: [
      {
        code: 'starter',
        name: 'Starter',
        description: 'Small',
        currency: 'EUR',
        monthly_price_cents: 1900,
        yearly_price_cents: 19000,
        modules: ['sales'],
        max_users: 3,
      },
      {
        code: 'business',
        name: 'Business',
        description: '',
        currency: 'EUR',
        monthly_price_cents: 4900,
        yearly_price_cents: 49000,
        modules: ['sales', 'inventory'],
        max_users: null,
      },
    ],
    metadata: { product: 'ERP', features: { sso: true } },
    ...overrides,
  };
}

/** POST /api/erp-sync with the test key (or `key`; null sends none). */
export function pushTo(landing: TestLanding, body: unknown, key: string | null = SYNC_API_KEY) {
  return landing.app.request('/api/erp-sync', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Every row landing keeps about the sync, in a stable order. */
export async function syncTables(landing: TestLanding) {
  const { rows } = await sql`SELECT
      (SELECT json_agg(t ORDER BY id) FROM landing.tenants t) AS tenants,
      (SELECT json_agg(p ORDER BY code) FROM landing.plans p) AS plans,
      (SELECT json_agg(m ORDER BY key) FROM landing.metadata m) AS metadata,
      (SELECT row_to_json(s) FROM landing.sync_state s) AS state`.execute(landing.db);
  return rows[0] as {
    tenants: unknown;
    plans: unknown;
    metadata: unknown;
    state: Record<string, unknown>;
  };
}

/** Empties the snapshot and the sync state (tests share one database per file). */
export async function resetSync(landing: TestLanding): Promise<void> {
  await sql`TRUNCATE landing.tenants, landing.plans, landing.metadata;
    UPDATE landing.sync_state SET last_sync_at = NULL, generated_at = NULL, payload_sha256 = NULL,
      pushes_received = 0`.execute(landing.db);
  landing.clock.offsetMs = 0;
}
