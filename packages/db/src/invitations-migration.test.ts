import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const invitations = migrations['2026-11-28-0028-invitations']!;
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$placeholder';

describe('migration 2026-11-28-0028-invitations', () => {
  it('turns unused invitee memberships into invitations, erases admin-chosen passwords, keeps a super-admin', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as unknown as Kysely<any>;
    await invitations.down!(db);
    const { rows: tenants } = await sql<{ id: string; slug: string }>`
      INSERT INTO tenants (slug, name) VALUES ('only-admins', 'A'), ('has-super', 'S')
      RETURNING id, slug`.execute(db);
    const [onlyAdmins, hasSuper] = [tenants[0]!.id, tenants[1]!.id];
    const user = async (email: string, password: boolean, createdAt: string) =>
      (
        await sql<{ id: string }>`
          INSERT INTO users (email, name, password_hash, created_at)
          VALUES (${email}, ${email}, ${password ? HASH : null}, ${createdAt}::timestamptz)
          RETURNING id`.execute(db)
      ).rows[0]!.id;
    const firstAdmin = await user('first@x.test', true, '2026-01-01');
    const laterAdmin = await user('later@x.test', true, '2026-01-02');
    const invitee = await user('invitee@x.test', false, '2026-02-01');
    const ssoMember = await user('sso@x.test', false, '2026-02-01');
    const chosen = await user('chosen@x.test', true, '2026-03-01');
    const chosenThenReset = await user('reset@x.test', true, '2026-03-01');
    const existingAdded = await user('existing@x.test', true, '2026-01-05');
    const patched = await user('patched@x.test', true, '2026-01-05');
    const superAdmin = await user('super@x.test', true, '2026-01-01');
    await sql`
      INSERT INTO memberships (tenant_id, user_id, roles, created_at) VALUES
        (${onlyAdmins}, ${firstAdmin}, '{admin}', '2026-01-01'),
        (${onlyAdmins}, ${laterAdmin}, '{admin}', '2026-01-02'),
        (${onlyAdmins}, ${invitee}, '{sales:reader}', '2026-02-01'),
        (${onlyAdmins}, ${ssoMember}, '{crm:reader}', '2026-02-01'),
        (${onlyAdmins}, ${chosen}, '{crm:reader}', '2026-03-01'),
        (${onlyAdmins}, ${chosenThenReset}, '{crm:reader}', '2026-03-01'),
        (${onlyAdmins}, ${existingAdded}, '{crm:reader}', '2026-04-01'),
        (${onlyAdmins}, ${patched}, '{crm:reader}', '2026-01-05'),
        (${hasSuper}, ${superAdmin}, '{super-admin}', '2026-01-01'),
        (${hasSuper}, ${laterAdmin}, '{admin}', '2026-01-03')
    `.execute(db);
    await sql`
      INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at) VALUES
        (gen_random_uuid(), ${ssoMember}, '\\x01', now() + interval '1 day'),
        (gen_random_uuid(), ${chosen}, '\\x02', now() + interval '1 day'),
        (gen_random_uuid(), ${patched}, '\\x03', now() + interval '1 day'),
        (gen_random_uuid(), ${existingAdded}, '\\x04', now() + interval '1 day')
    `.execute(db);
    await sql`
      INSERT INTO audit_log (tenant_id, at, action, target_type, target_id, details) VALUES
        (${onlyAdmins}, '2026-03-01', 'member.added', 'user', ${chosen}, '{"invited": false}'),
        (${onlyAdmins}, '2026-03-01', 'member.added', 'user', ${chosenThenReset}, '{"invited": false}'),
        (${onlyAdmins}, '2026-04-01', 'member.added', 'user', ${existingAdded}, '{"invited": false}'),
        (${onlyAdmins}, '2026-05-01', 'member.updated', 'user', ${patched}, '{"changed": ["roles", "password"]}'),
        (${onlyAdmins}, '2026-02-01', 'member.added', 'user', ${ssoMember}, '{"invited": false, "via": "sso"}')
    `.execute(db);
    await sql`
      INSERT INTO password_tokens (user_id, purpose, tenant_id, token_hash, expires_at, used_at) VALUES
        (${chosenThenReset}, 'password_reset', NULL, '\\x10', '2026-03-02', '2026-03-02'),
        (${invitee}, 'invitation', ${onlyAdmins}, '\\x11', now() + interval '1 day', NULL)
    `.execute(db);

    await invitations.up(db);

    const pending = await sql`
      SELECT tenant_id, email, roles FROM invitations ORDER BY email`.execute(db);
    expect(pending.rows).toEqual([
      { tenant_id: onlyAdmins, email: 'invitee@x.test', roles: ['sales:reader'] },
    ]);
    const members = await sql<{ user_id: string; roles: string[] }>`
      SELECT user_id, roles FROM memberships WHERE tenant_id = ${onlyAdmins}`.execute(db);
    const rolesOf = (id: string) => members.rows.find((m) => m.user_id === id)?.roles;
    expect(rolesOf(invitee)).toBeUndefined();
    expect(rolesOf(ssoMember)).toEqual(['crm:reader']);
    // The oldest admin of a tenant without a super-admin becomes one; elsewhere nothing changes.
    expect(rolesOf(firstAdmin)).toEqual(['admin', 'super-admin']);
    expect(rolesOf(laterAdmin)).toEqual(['admin']);
    const elsewhere = await sql<{ roles: string[] }>`
      SELECT roles FROM memberships WHERE tenant_id = ${hasSuper} AND user_id = ${laterAdmin}`.execute(
      db,
    );
    expect(elsewhere.rows[0]!.roles).toEqual(['admin']);

    const passwords = await sql<{ email: string; has_password: boolean }>`
      SELECT email, password_hash IS NOT NULL AS has_password FROM users
      WHERE email LIKE '%@x.test' ORDER BY email`.execute(db);
    expect(Object.fromEntries(passwords.rows.map((r) => [r.email, r.has_password]))).toEqual({
      'chosen@x.test': false,
      'existing@x.test': true,
      'first@x.test': true,
      'invitee@x.test': false,
      'later@x.test': true,
      'patched@x.test': false,
      'reset@x.test': true,
      'sso@x.test': false,
      'super@x.test': true,
    });
    const live = await sql<{ user_id: string }>`
      SELECT user_id FROM refresh_tokens WHERE revoked_at IS NULL
        AND user_id IN (${ssoMember}, ${chosen}, ${patched}, ${existingAdded})`.execute(db);
    expect(live.rows.map((r) => r.user_id).sort()).toEqual([ssoMember, existingAdded].sort());
    const links = await sql`SELECT purpose FROM password_tokens WHERE user_id = ${invitee}`.execute(
      db,
    );
    expect(links.rows).toEqual([]);
  });
});
