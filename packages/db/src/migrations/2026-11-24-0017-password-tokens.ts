import { type Kysely, sql } from 'kysely';

/**
 * The links that let a person set their password (SPEC §13): a password reset (30 minutes) or
 * an invitation to a tenant (7 days). One table, the link's purpose a column, since both do the
 * same thing once followed.
 *
 * The worker mints a token just before it mails it and stores only its SHA-256 (the token is
 * 256 random bits: a fast hash is enough, as for refresh tokens), so the token itself is never
 * at rest anywhere, not even in the job queue. The portal consumes it with one conditional
 * UPDATE (`used_at IS NULL AND expires_at > now()`): a link works once, and two concurrent
 * uses cannot both pass. `tenant_id` is the invitation's tenant (where the console takes the
 * invitee once the password is set).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE password_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('password_reset', 'invitation')),
      tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      CHECK ((purpose = 'invitation') = (tenant_id IS NOT NULL))
    );
    CREATE INDEX password_tokens_user ON password_tokens (user_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE password_tokens`.execute(db);
}
