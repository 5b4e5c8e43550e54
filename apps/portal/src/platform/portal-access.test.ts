import { sql } from '@erp/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';
import { buildApp } from '../app';

const PATH = '/api/v1/settings/portal-access';
const OPERATOR = 'ops';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let operator: { slug: string; id: string; adminEmail: string };
let operatorToken: string;

beforeAll(async () => {
  portal = await createTestPortal({ PLATFORM_TENANT: OPERATOR });
  operator = await portal.provisionTenant('enterprise', OPERATOR);
  operatorToken = (await portal.login(operator.adminEmail)).access_token;
});
afterAll(() => portal.tdb.close());

beforeEach(async () => {
  await sql`DELETE FROM graphile_worker._private_jobs`.execute(portal.tdb.db);
  await sql`UPDATE portal_access SET sync_url = NULL, enabled = true, last_attempt_at = NULL,
    last_success_at = NULL, last_status = NULL, last_target = NULL, last_http_status = NULL,
    last_error = NULL, last_counts = NULL`.execute(portal.tdb.db);
});

const get = (headers: Record<string, string>) =>
  portal.request(PATH, { headers }).then(portal.json);
const put = (body: unknown, headers: Record<string, string>) =>
  portal
    .request(PATH, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    .then(portal.json);
const asOperator = () => session(operatorToken, OPERATOR);

async function queuedJobs() {
  const { rows } = await sql<{
    task_identifier: string;
    key: string | null;
    max_attempts: number;
    queue_name: string | null;
  }>`
    SELECT task_identifier, key, max_attempts, queue_name FROM graphile_worker.jobs
    WHERE task_identifier <> 'mail_invitation'`.execute(portal.tdb.db);
  return rows;
}

async function storedRow() {
  return portal.tdb.db.selectFrom('portal_access').selectAll().executeTakeFirstOrThrow();
}

describe('Settings → Portal access, as the platform operator', () => {
  it('reads the defaults: no URL of its own, enabled, no push yet', async () => {
    const res = await get(asOperator());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sync_url: null,
      enabled: true,
      updated_at: expect.any(String),
      last_result: {
        status: null,
        attempted_at: null,
        succeeded_at: null,
        target: null,
        http_status: null,
        error: null,
        counts: null,
      },
    });
  });

  it('stores a URL, answers the new state and queues one immediate erp_sync push', async () => {
    const before = await storedRow();
    const url = 'https://www.example.com/api/erp-sync';
    const res = await put({ sync_url: url }, asOperator());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sync_url: url, enabled: true });
    expect(new Date(res.body.updated_at).getTime()).toBeGreaterThan(before.updated_at.getTime());
    expect((await storedRow()).sync_url).toBe(url);
    // As the worker's schedule queues it (jobs.erpSync): in the erp_sync queue, so a push
    // asked for here never runs beside a scheduled one.
    expect(await queuedJobs()).toEqual([
      { task_identifier: 'erp_sync', key: 'erp_sync', max_attempts: 3, queue_name: 'erp_sync' },
    ]);
    expect((await get(asOperator())).body).toEqual(res.body);
  });

  it('changes only the fields sent; saves in a row keep one pending push', async () => {
    const url = 'http://127.0.0.1:3001/api/erp-sync';
    await put({ sync_url: url }, asOperator());
    const off = await put({ enabled: false }, asOperator());
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ sync_url: url, enabled: false });
    const fallback = await put({ sync_url: null }, asOperator());
    expect(fallback.body).toMatchObject({ sync_url: null, enabled: false });
    expect(await storedRow()).toMatchObject({ sync_url: null, enabled: false });
    expect(await queuedJobs()).toHaveLength(1);
  });

  it('accepts the operator tenant named by its UUID', async () => {
    const res = await put({ enabled: true }, session(operatorToken, operator.id));
    expect(res.status).toBe(200);
  });

  it('shows what the worker recorded of the last push', async () => {
    await sql`UPDATE portal_access SET last_status = 'failed',
      last_attempt_at = '2026-11-23T10:05:00Z', last_success_at = '2026-11-23T10:00:00Z',
      last_target = 'https://www.example.com/api/erp-sync', last_http_status = 503,
      last_error = 'HTTP 503', last_counts = '{"tenants": 4, "plans": 3, "metadata": 1}'`.execute(
      portal.tdb.db,
    );
    const res = await get(asOperator());
    expect(res.body.last_result).toEqual({
      status: 'failed',
      attempted_at: '2026-11-23T10:05:00.000Z',
      succeeded_at: '2026-11-23T10:00:00.000Z',
      target: 'https://www.example.com/api/erp-sync',
      http_status: 503,
      error: 'HTTP 503',
      counts: { tenants: 4, plans: 3, metadata: 1 },
    });
  });
});

describe('Settings → Portal access, bad input', () => {
  const bad: Array<[string, unknown]> = [
    ['no field', {}],
    ['an unknown field', { enabled: true, sync_urls: 'https://x.example.com/' }],
    ['a relative URL', { sync_url: '/api/erp-sync' }],
    ['another scheme', { sync_url: 'ftp://www.example.com/erp-sync' }],
    ['credentials in the URL', { sync_url: 'https://user:secret@www.example.com/api/erp-sync' }],
    ['a user name alone', { sync_url: 'https://user@www.example.com/api/erp-sync' }],
    ['a space', { sync_url: 'https://www.example.com/api/erp sync' }],
    ['over 2000 characters', { sync_url: `https://www.example.com/${'a'.repeat(1977)}` }],
    ['a non-boolean enabled', { enabled: 'yes' }],
    ['a non-string URL', { sync_url: 42 }],
  ];
  for (const [what, body] of bad) {
    it(`refuses ${what}: 400 requete_invalide, nothing stored or queued`, async () => {
      const res = await put(body, asOperator());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues.length).toBeGreaterThan(0);
      expect(await storedRow()).toMatchObject({ sync_url: null, enabled: true });
      expect(await queuedJobs()).toEqual([]);
    });
  }

  it('accepts a URL of exactly 2000 characters', async () => {
    const url = `https://www.example.com/${'a'.repeat(1976)}`;
    expect(url).toHaveLength(2000);
    expect((await put({ sync_url: url }, asOperator())).status).toBe(200);
  });
});

describe('Settings → Portal access, who may', () => {
  async function expectRefused(
    res: { status: number; body: { code: string; params: Record<string, unknown> } },
    status: number,
    code: string,
    params: Record<string, unknown> = {},
  ) {
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.params).toMatchObject(params);
    expect(await storedRow()).toMatchObject({ sync_url: null, enabled: true });
    expect(await queuedJobs()).toEqual([]);
  }
  const change = { sync_url: 'https://evil.example.com/collect' };

  it('refuses a super-admin of any other tenant: acces_refuse, platform_operator', async () => {
    const other = await portal.provisionTenant('enterprise');
    const token = (await portal.login(other.adminEmail)).access_token;
    const required = { required: 'platform_operator' };
    await expectRefused(await get(session(token, other.slug)), 403, 'acces_refuse', required);
    await expectRefused(
      await put(change, session(token, other.slug)),
      403,
      'acces_refuse',
      required,
    );
  });

  it('refuses a plain admin of the operator tenant: acces_refuse, super-admin', async () => {
    const admin = await portal.addUser(operator, ['admin']);
    const required = { required: 'super-admin' };
    await expectRefused(await get(session(admin.token, OPERATOR)), 403, 'acces_refuse', required);
    await expectRefused(
      await put(change, session(admin.token, OPERATOR)),
      403,
      'acces_refuse',
      required,
    );
  });

  it('refuses API keys, even the operator super-admin’s', async () => {
    const key = await portal.createKey(operator, ['webhooks']);
    await expectRefused(await put(change, apiKey(key.key, OPERATOR)), 403, 'acces_refuse', {
      required: 'session',
    });
  });

  it('refuses everyone when PLATFORM_TENANT is not set', async () => {
    const { PLATFORM_TENANT: _, ...env } = portal.deps.env;
    const app = buildApp({ ...portal.deps, env });
    const res = await app.request(PATH, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...asOperator() },
      body: JSON.stringify(change),
    });
    await expectRefused(await portal.json(res), 403, 'acces_refuse', {
      required: 'platform_operator',
    });
  });

  it('needs credentials and a tenant the caller belongs to', async () => {
    await expectRefused(await put(change, {}), 401, 'non_authentifie');
    await expectRefused(await put(change, session('not-a-jwt', OPERATOR)), 401, 'jeton_invalide');
    await expectRefused(await put(change, session(operatorToken)), 400, 'tenant_requis');
    const stranger = await portal.provisionTenant('starter');
    await expectRefused(
      await put(change, session(operatorToken, stranger.slug)),
      403,
      'tenant_invalide',
    );
  });
});
