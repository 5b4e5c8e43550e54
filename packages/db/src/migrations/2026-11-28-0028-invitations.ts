import { type Kysely, sql } from 'kysely';

/**
 * An account belongs to its person, a membership to the tenant (SPEC §3, wave 3).
 *
 * - `invitations`: what `POST /settings/users` makes. It grants nothing until the person accepts
 *   it through the mailed link, and touches no account (no row of `users` is read or written
 *   when inviting, so the answer cannot tell whether the e-mail has one). The worker mints the
 *   link's token and stores its SHA-256 here (`token_hash`, `token_expires_at`); a new mail
 *   replaces the previous link.
 * - Memberships that an invitation made under the old rules and that nobody ever used (an
 *   account without a password that never opened a session) become pending invitations, with
 *   their roles; their old links (`password_tokens` of purpose `invitation`) are gone, and the
 *   admin's next invitation of the same e-mail mails a new one.
 * - Passwords an admin chose (created or changed through Settings → Users, as the audit log
 *   shows: an account made by a `member.added` without an invitation, a `member.updated`
 *   changing `password`) are
 *   erased unless the person set their own since (a used reset link, later than the admin's
 *   act), and the account's sessions end. The person sets a new one through "forgot password",
 *   which only their inbox can complete. See docs/decisions.md.
 * - Every tenant keeps an active super-admin: a tenant that has admins but no super-admin has
 *   its oldest admin promoted (only a super-admin manages admins from now on).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      email text NOT NULL CHECK (email = lower(email)),
      name text NOT NULL,
      roles text[] NOT NULL CHECK (cardinality(roles) > 0),
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      token_hash bytea UNIQUE,
      token_expires_at timestamptz,
      CHECK ((token_hash IS NULL) = (token_expires_at IS NULL))
    );
    CREATE UNIQUE INDEX invitations_tenant_email ON invitations (tenant_id, email);

    INSERT INTO invitations (tenant_id, email, name, roles, created_at)
    SELECT m.tenant_id, lower(u.email), u.name, m.roles, m.created_at
    FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE u.password_hash IS NULL
      AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.user_id = u.id);
    DELETE FROM memberships m USING users u
    WHERE u.id = m.user_id AND u.password_hash IS NULL
      AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.user_id = u.id);
    DELETE FROM password_tokens WHERE purpose = 'invitation';

    WITH chosen AS (
      SELECT a.target_id AS user_id, max(a.at) AS at
      FROM audit_log a JOIN users u ON u.id = a.target_id
      WHERE a.target_type = 'user'
        -- created with the admin's password: the account was made by that very transaction
        AND ((a.action = 'member.added' AND a.details->>'invited' = 'false'
              AND a.details->>'via' IS NULL AND u.created_at = a.at)
          OR (a.action = 'member.updated' AND a.details->'changed' ? 'password'))
      GROUP BY a.target_id
    ), erased AS (
      UPDATE users u SET password_hash = NULL, updated_at = now()
      FROM chosen c
      WHERE u.id = c.user_id AND u.password_hash IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM password_tokens t
          WHERE t.user_id = u.id AND t.purpose = 'password_reset' AND t.used_at > c.at
        )
      RETURNING u.id
    )
    UPDATE refresh_tokens r SET revoked_at = now()
    FROM erased e WHERE r.user_id = e.id AND r.revoked_at IS NULL;

    UPDATE memberships m SET roles = array_append(m.roles, 'super-admin')
    FROM (
      SELECT DISTINCT ON (tenant_id) tenant_id, user_id
      FROM memberships
      WHERE 'admin' = ANY (roles)
        AND tenant_id NOT IN (SELECT tenant_id FROM memberships WHERE 'super-admin' = ANY (roles))
      ORDER BY tenant_id, created_at, user_id
    ) oldest
    WHERE m.tenant_id = oldest.tenant_id AND m.user_id = oldest.user_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE invitations`.execute(db);
}
