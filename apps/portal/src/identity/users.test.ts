import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant();
  admin = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
});
afterAll(() => portal.tdb.close());

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  portal
    .request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    .then(portal.json);

describe('Settings → Users', () => {
  it('adds, lists, changes and removes users', async () => {
    const created = await call('POST', '/api/v1/settings/users', admin, {
      email: 'Ana@Example.test',
      name: 'Ana',
      roles: ['sales:reader'],
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'Ana@Example.test', roles: ['sales:reader'] });
    const ana = await portal.login('ana@example.test');
    const me = await call('GET', '/api/v1/me', session(ana.access_token, tenant.slug));
    expect(me.body.rights).toEqual(['sales:read']);

    const list = await call('GET', '/api/v1/settings/users', admin);
    expect(list.body.data.map((u: { email: string }) => u.email)).toContain('Ana@Example.test');

    const patched = await call('PATCH', `/api/v1/settings/users/${created.body.id}`, admin, {
      roles: ['sales:editor', 'crm:reader'],
      name: 'Ana B.',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ana B.', roles: ['sales:editor', 'crm:reader'] });

    expect((await call('DELETE', `/api/v1/settings/users/${created.body.id}`, admin)).status).toBe(
      204,
    );
    const gone = await call('GET', '/api/v1/me', session(ana.access_token, tenant.slug));
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe('tenant_invalide');
    expect((await call('DELETE', `/api/v1/settings/users/${created.body.id}`, admin)).status).toBe(
      404,
    );
  });

  it('refuses a duplicate membership with 409 conflit', async () => {
    const body = {
      email: 'dup@example.test',
      name: 'Dup',
      roles: ['crm:reader'],
      password: PASSWORD,
    };
    expect((await call('POST', '/api/v1/settings/users', admin, body)).status).toBe(201);
    const again = await call('POST', '/api/v1/settings/users', admin, body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflit');
  });

  it('keeps the last admin', async () => {
    const demote = await call('PATCH', `/api/v1/settings/users/${tenant.adminId}`, admin, {
      roles: ['sales:reader'],
    });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ code: 'conflit', params: { reason: 'last_admin' } });
    expect((await call('DELETE', `/api/v1/settings/users/${tenant.adminId}`, admin)).status).toBe(
      409,
    );
  });

  it('is for admins: others get acces_refuse; unknown roles are invalid', async () => {
    const reader = await portal.addUser(tenant, ['sales:reader']);
    const res = await call('GET', '/api/v1/settings/users', session(reader.token, tenant.slug));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'admin' } });
    const bad = await call('POST', '/api/v1/settings/users', admin, {
      email: 'x@example.test',
      name: 'X',
      roles: ['owner'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('requete_invalide');
  });

  it('does not let one tenant’s admin take over a user shared with another tenant', async () => {
    const other = await portal.provisionTenant();
    const otherAdmin = {
      ...session((await portal.login(other.adminEmail)).access_token, other.slug),
      'content-type': 'application/json',
    };
    const shared = await call('POST', '/api/v1/settings/users', admin, {
      email: 'shared@example.test',
      name: 'S',
      roles: ['crm:reader'],
      password: PASSWORD,
    });
    const joined = await call('POST', '/api/v1/settings/users', otherAdmin, {
      email: 'shared@example.test',
      name: 'S',
      roles: ['crm:reader'],
    });
    expect(joined.status).toBe(201);
    const takeover = await call('PATCH', `/api/v1/settings/users/${shared.body.id}`, otherAdmin, {
      password: 'new password 123456',
    });
    expect(takeover.status).toBe(403);
    expect(takeover.body.params.required).toBe('sole_membership');
    expect((await portal.login('shared@example.test')).access_token).toBeTruthy();
  });
});
