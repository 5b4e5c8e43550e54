import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, PASSWORD, session } from '../../test/harness';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let superAdmin: Record<string, string>;
beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant();
  superAdmin = await sessionOf(tenant.adminEmail, tenant.slug);
});
afterAll(() => portal.tdb.close());

async function sessionOf(email: string, slug: string, password = PASSWORD) {
  return {
    ...session((await portal.login(email, password)).access_token, slug),
    'content-type': 'application/json',
  };
}

const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  portal
    .request(path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    .then(portal.json);

const USERS = '/api/v1/settings/users';
const accept = (body: object) => call('POST', '/api/v1/auth/invitations/accept', {}, body);
const loginStatus = async (email: string, password: string) =>
  (await portal.json(await portal.post('/api/v1/auth/login', { email, password }))).status;

/** A second tenant with its own super-admin, and an admin (not super) of the first tenant. */
async function plainAdmin() {
  const added = await portal.addUser(tenant, ['admin']);
  return { ...added, headers: await sessionOf(added.email, tenant.slug) };
}

describe('Settings → Users: invitations (SPEC §3)', () => {
  it('invites, lists as invited, and makes a member only once the person accepts', async () => {
    const invited = await call('POST', USERS, superAdmin, {
      email: 'Ana@Example.test',
      name: 'Ana',
      roles: ['sales:reader'],
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      email: 'ana@example.test',
      name: 'Ana',
      roles: ['sales:reader'],
      status: 'invited',
    });
    // Nothing exists of an account yet: no login, no membership.
    const accounts = await portal.tdb.pool.query(
      "SELECT 1 FROM users WHERE email = 'ana@example.test'",
    );
    expect(accounts.rowCount).toBe(0);
    const listed = await call('GET', USERS, superAdmin);
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ id: invited.body.id, status: 'invited' }),
    );

    const token = await portal.invitationLink(invited.body.id);
    const lookup = await call('POST', '/api/v1/auth/invitations/lookup', {}, { token });
    expect(lookup.body).toMatchObject({
      email: 'ana@example.test',
      account: 'new',
      tenant: { slug: tenant.slug },
    });
    const accepted = await accept({ token, password: PASSWORD, name: 'Ana Bell' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ email: 'ana@example.test', tenant: tenant.slug });
    const ana = await sessionOf('ana@example.test', tenant.slug);
    expect((await call('GET', '/api/v1/me', ana)).body.rights).toEqual(['sales:read']);
    const after = await call('GET', USERS, superAdmin);
    const row = after.body.data.find((u: { email: string }) => u.email === 'ana@example.test');
    expect(row).toMatchObject({ status: 'active', name: 'Ana Bell' });
    // The link worked once.
    expect((await accept({ token, password: PASSWORD })).body).toMatchObject({
      code: 'lien_invalide',
      params: { reason: 'unknown' },
    });

    expect((await call('DELETE', `${USERS}/${row.id}`, superAdmin)).status).toBe(204);
    const gone = await call('GET', '/api/v1/me', ana);
    expect(gone.status).toBe(403);
    expect((await call('DELETE', `${USERS}/${row.id}`, superAdmin)).status).toBe(404);
  });

  it('refuses a password, and any change of name, e-mail or password, with requete_invalide', async () => {
    const withPassword = await call('POST', USERS, superAdmin, {
      email: 'p@example.test',
      name: 'P',
      roles: ['crm:reader'],
      password: 'Attacker-pass-123',
    });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.code).toBe('requete_invalide');
    const member = await portal.addUser(tenant, ['crm:reader']);
    for (const body of [
      { password: 'new password 123456' },
      { name: 'Someone else' },
      { email: 'other@example.test' },
      { roles: ['crm:editor'], password: 'new password 123456' },
    ]) {
      const res = await call('PATCH', `${USERS}/${member.id}`, superAdmin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
    }
    expect(await loginStatus(member.email, PASSWORD)).toBe(200);
  });

  it('answers alike whether the e-mail has an account or not (no oracle)', async () => {
    const known = await portal.addUser(await portal.provisionTenant(), ['crm:reader']);
    const shape = (body: Record<string, unknown>) => ({ ...body, id: 'x', created_at: 'x' });
    const forKnown = await call('POST', USERS, superAdmin, {
      email: known.email,
      name: 'N',
      roles: ['crm:reader'],
    });
    const forUnknown = await call('POST', USERS, superAdmin, {
      email: known.email.replace('u-', 'nobody-'),
      name: 'N',
      roles: ['crm:reader'],
    });
    expect(forKnown.status).toBe(201);
    expect(forUnknown.status).toBe(201);
    expect(Object.keys(forKnown.body).sort()).toEqual(Object.keys(forUnknown.body).sort());
    expect(shape({ ...forKnown.body, email: 'e' })).toEqual(
      shape({ ...forUnknown.body, email: 'e' }),
    );
    // The known account is not a member until it signs in and accepts.
    const token = await portal.invitationLink(forKnown.body.id);
    expect(
      (await call('POST', '/api/v1/auth/invitations/lookup', {}, { token })).body.account,
    ).toBe('existing');
    expect((await accept({ token, password: 'another password 42' })).body).toMatchObject({
      code: 'conflit',
      params: { reason: 'account_exists' },
    });
    expect(await loginStatus(known.email, 'another password 42')).toBe(401);
    const someoneElse = session(superAdmin.authorization!.slice(7));
    const wrong = await call('POST', '/api/v1/auth/invitations/join', someoneElse, { token });
    expect(wrong.status).toBe(403);
    expect(wrong.body.params.required).toBe('invitee');
    const own = session(known.token);
    expect((await call('POST', '/api/v1/auth/invitations/join', own, { token })).status).toBe(200);
    const me = await call('GET', '/api/v1/me', session(known.token, tenant.slug));
    expect(me.body.rights).toEqual(['crm:read']);
  });

  it('reproduction 1: tenant A’s admin cannot take over an account later added to tenant B', async () => {
    const victimTenant = await portal.provisionTenant();
    const victimAdmin = await sessionOf(victimTenant.adminEmail, victimTenant.slug);
    const email = `cfo-${victimTenant.slug}@victim.test`;
    // A's admin tries to create the account with a password of their choosing: refused; an
    // invitation without one creates no account either.
    const planted = await call('POST', USERS, superAdmin, {
      email,
      name: 'Attacker typed this',
      roles: ['sales:reader'],
      password: 'Attacker-pass-123',
    });
    expect(planted.status).toBe(400);
    expect(
      (
        await call('POST', USERS, superAdmin, {
          email,
          name: 'Attacker typed this',
          roles: ['sales:reader'],
        })
      ).status,
    ).toBe(201);
    // B's admin invites the same person as admin (B's super-admin may).
    const byVictim = await call('POST', USERS, victimAdmin, {
      email,
      name: 'Chief Financial Officer',
      roles: ['admin'],
    });
    expect(byVictim.status).toBe(201);
    expect(byVictim.body.name).toBe('Chief Financial Officer');
    expect(await loginStatus(email, 'Attacker-pass-123')).toBe(401);
    const listed = await call('GET', USERS, victimAdmin);
    expect(JSON.stringify(listed.body)).not.toContain('Attacker typed this');
    // The person accepts B's link with their own password; A's invitation still grants nothing.
    const token = await portal.invitationLink(byVictim.body.id);
    expect((await accept({ token, password: 'the cfo own password' })).status).toBe(200);
    expect(await loginStatus(email, 'Attacker-pass-123')).toBe(401);
    const cfo = await portal.login(email, 'the cfo own password');
    const inA = await call('GET', '/api/v1/me', session(cfo.access_token, tenant.slug));
    expect(inA.status).toBe(403);
    expect(inA.body.code).toBe('tenant_invalide');
  });

  it('reproduction 2: a plain admin cannot reach a super-admin, nor grant admin roles', async () => {
    const admin = await plainAdmin();
    const target = `${USERS}/${tenant.adminId}`;
    for (const [method, body] of [
      ['PATCH', { password: 'Attacker-pass-123' }],
      ['PATCH', { roles: ['sales:reader'] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, target, admin.headers, body);
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(
        body && 'password' in body ? 400 : 403,
      );
    }
    expect(await loginStatus(tenant.adminEmail, PASSWORD)).toBe(200);
    const stillSuper = await call('GET', USERS, superAdmin);
    expect(stillSuper.body.data).toContainEqual(
      expect.objectContaining({ id: tenant.adminId, roles: ['super-admin'] }),
    );
    for (const roles of [['admin'], ['super-admin'], ['sales:reader', 'admin']]) {
      const res = await call('POST', USERS, admin.headers, {
        email: 'x@example.test',
        name: 'X',
        roles,
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'super-admin' } });
    }
    // Nor another admin: demote, remove, or promote a module member to admin.
    const peer = await portal.addUser(tenant, ['admin']);
    expect(
      (await call('PATCH', `${USERS}/${peer.id}`, admin.headers, { roles: ['crm:reader'] })).status,
    ).toBe(403);
    expect((await call('DELETE', `${USERS}/${peer.id}`, admin.headers)).status).toBe(403);
    const member = await portal.addUser(tenant, ['crm:reader']);
    expect(
      (await call('PATCH', `${USERS}/${member.id}`, admin.headers, { roles: ['admin'] })).status,
    ).toBe(403);
    // Module roles are an admin's to manage.
    const changed = await call('PATCH', `${USERS}/${member.id}`, admin.headers, {
      roles: ['crm:editor', 'sales:reader'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.roles).toEqual(['crm:editor', 'sales:reader']);
    // Single sign-on: who signs in as whom is a super-admin's choice.
    const sso = await call('PUT', '/api/v1/settings/sso', admin.headers, {
      issuer: 'https://idp.attacker.example',
      client_id: 'x',
      client_secret: 'y',
      allowed_domains: [],
      default_role: 'sales:reader',
      enforced: false,
    });
    expect(sso.status).toBe(403);
    expect(sso.body).toMatchObject({ code: 'acces_refuse', params: { required: 'super-admin' } });
    expect((await call('DELETE', '/api/v1/settings/sso', admin.headers)).status).toBe(403);
  });

  it('keeps an active super-admin, and lets a super-admin manage admins', async () => {
    const demote = await call('PATCH', `${USERS}/${tenant.adminId}`, superAdmin, {
      roles: ['admin'],
    });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ code: 'conflit', params: { reason: 'last_super_admin' } });
    expect((await call('DELETE', `${USERS}/${tenant.adminId}`, superAdmin)).status).toBe(409);

    const second = await portal.addUser(tenant, ['admin']);
    const promoted = await call('PATCH', `${USERS}/${second.id}`, superAdmin, {
      roles: ['super-admin'],
    });
    expect(promoted.status).toBe(200);
    const secondSuper = await sessionOf(second.email, tenant.slug);
    const handBack = await call('PATCH', `${USERS}/${second.id}`, secondSuper, {
      roles: ['admin'],
    });
    expect(handBack.status).toBe(200);
  });

  it('re-inviting refreshes the invitation; a member already is 409; invitations can be withdrawn', async () => {
    const body = { email: 'dup@example.test', name: 'Dup', roles: ['crm:reader'] };
    const first = await call('POST', USERS, superAdmin, body);
    const again = await call('POST', USERS, superAdmin, { ...body, roles: ['crm:editor'] });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: first.body.id, roles: ['crm:editor'] });
    const patched = await call('PATCH', `${USERS}/${first.body.id}`, superAdmin, {
      roles: ['sales:reader'],
    });
    expect(patched.body).toMatchObject({ status: 'invited', roles: ['sales:reader'] });
    expect((await call('DELETE', `${USERS}/${first.body.id}`, superAdmin)).status).toBe(204);
    expect((await call('GET', USERS, superAdmin)).body.data).not.toContainEqual(
      expect.objectContaining({ email: 'dup@example.test' }),
    );
    const member = await portal.addUser(tenant, ['crm:reader']);
    const dup = await call('POST', USERS, superAdmin, { ...body, email: member.email });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('conflit');
  });

  it('is for admins: others get acces_refuse; unknown roles are invalid', async () => {
    const reader = await portal.addUser(tenant, ['sales:reader']);
    const res = await call('GET', USERS, session(reader.token, tenant.slug));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'acces_refuse', params: { required: 'admin' } });
    const bad = await call('POST', USERS, superAdmin, {
      email: 'x@example.test',
      name: 'X',
      roles: ['owner'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('requete_invalide');
  });
});
