import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, createTestPortal, session } from '../../test/harness';

/** SPEC §16: an Idempotency-Key belongs to the principal (user or API key) that sent it. */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
}, 120_000);
afterAll(() => portal.tdb.close());

const body = { name: 'Idempotent customer', customer_type: 'company', active: true };
const create = (headers: Record<string, string>) =>
  portal.post('/api/v1/customers', body, headers).then(portal.json);

describe('Idempotency-Key per principal', () => {
  it('the same key and body from another principal creates its own record, never the first one’s', async () => {
    const key = { 'idempotency-key': `principal-${Date.now()}` };
    const first = await create({ ...admin, ...key });
    expect(first.status).toBe(201);
    const byKey = apiKey((await portal.createKey(tenant, ['crm:write'])).key, tenant.slug);
    const other = await create({ ...byKey, ...key });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.id).not.toBe(first.body.id);
    // Each principal still gets its own answer back on a retry.
    const retried = await create({ ...byKey, ...key });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.id).toBe(other.body.id);
    // A new session of the same user is the same principal: its retry replays.
    const again = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
    const replayed = await create({ ...again, ...key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.id).toBe(first.body.id);
  });

  it('a replay checks the route’s right again: a key that lost crm:write is refused, not replayed', async () => {
    const created = await portal.createKey(tenant, ['crm:write']);
    const headers = {
      ...apiKey(created.key, tenant.slug),
      'idempotency-key': `lost-${Date.now()}`,
    };
    expect((await create(headers)).status).toBe(201);
    await portal.tdb.pool.query(`UPDATE api_keys SET scopes = '{crm:read}' WHERE id = $1`, [
      created.id,
    ]);
    const res = await create(headers);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'crm:write' } });
  });
});
