import { sql } from '@erp/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushTo, resetSync, snapshot, syncTables, T1 } from './erp-sync-fixtures';
import { createTestLanding, SYNC_API_KEY, type TestLanding } from './harness';

let landing: TestLanding;
beforeAll(async () => {
  landing = await createTestLanding({ ERP_SYNC_BODY_LIMIT_BYTES: '20000' });
});
afterAll(() => landing.close());
beforeEach(() => resetSync(landing));

const push = (body: unknown, key?: string | null) => pushTo(landing, body, key);
const tables = () => syncTables(landing);

describe('POST /api/erp-sync: the key', () => {
  it.each([
    ['missing', null, 'non_authentifie'],
    ['wrong', `${SYNC_API_KEY}x`, 'cle_api_invalide'],
    ['empty', '', 'non_authentifie'],
  ])('%s X-API-Key → 401 and nothing stored', async (_, key, code) => {
    const before = await tables();
    const response = await push(snapshot(), key);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code, params: {} });
    expect(await tables()).toEqual(before);
  });

  it('checks the key before the body: a bad body with a wrong key is still 401', async () => {
    const response = await push('{not json', 'wrong-key');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'cle_api_invalide' });
    const huge = await push({ padding: 'x'.repeat(50_000) }, 'wrong-key');
    expect(huge.status).toBe(401);
  });

  it('refuses every key when LANDING_SYNC_API_KEY is not configured', async () => {
    const unconfigured = await createTestLanding({ LANDING_SYNC_API_KEY: '' });
    try {
      const response = await unconfigured.app.request('/api/erp-sync', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': SYNC_API_KEY },
        body: JSON.stringify(snapshot()),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'cle_api_invalide' });
      const { rows } = await sql`SELECT count(*)::int AS n FROM landing.tenants`.execute(
        unconfigured.db,
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await unconfigured.close();
    }
  });
});

describe('POST /api/erp-sync: bad bodies', () => {
  const base = snapshot();
  it.each([
    ['not JSON', '{"generated_at":', ''],
    ['missing tenants', { ...base, tenants: undefined }, 'tenants'],
    ['bad tenant id', snapshot({ tenants: [{ ...base.tenants[0]!, id: 'nope' }] }), 'tenants.0.id'],
    [
      'unknown module',
      snapshot({ tenants: [{ ...base.tenants[0]!, modules: ['teleport'] as never }] }),
      'tenants.0.modules.0',
    ],
    [
      'duplicate tenant id',
      snapshot({ tenants: [base.tenants[0]!, { ...base.tenants[1]!, id: T1 }] }),
      'tenants.1.id',
    ],
    [
      'duplicate slug',
      snapshot({ tenants: [base.tenants[0]!, { ...base.tenants[1]!, slug: 'acme' }] }),
      'tenants.1.slug',
    ],
    ['duplicate plan code', snapshot({ plans: [base.plans[0]!, base.plans[0]!] }), 'plans.1.code'],
    ['bad generated_at', snapshot({ generated_at: 'yesterday' }), 'generated_at'],
  ])('%s → 400 requete_invalide, nothing stored', async (_, body, path) => {
    const before = await tables();
    const response = await push(body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as {
      code: string;
      params: { issues: { path: string }[] };
    };
    expect(error.code).toBe('requete_invalide');
    expect(error.params.issues.map((i) => i.path)).toEqual([path]);
    expect(await tables()).toEqual(before);
  });

  it('a valid push with the right key is accepted (the cases above differ by one field)', async () => {
    expect((await push(base)).status).toBe(200);
  });

  it('a push over ERP_SYNC_BODY_LIMIT_BYTES → 413', async () => {
    const response = await push({ ...snapshot(), metadata: { padding: 'x'.repeat(30_000) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'charge_trop_volumineuse' });
  });
});
