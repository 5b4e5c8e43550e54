import { type Kysely, sql } from 'kysely';

/**
 * Single sign-on per tenant (SPEC §13).
 *
 * - `sso_settings` (one row per tenant that has any): the OpenID provider (issuer, client id,
 *   the client secret sealed like webhook secrets: AES-256-GCM, `sso:<tenant id>` as associated
 *   data), the domains whose people become members on first sign-in and with which role, and
 *   whether password logins are refused.
 * - `tenants.sso_authorize_url` was a bare URL password logins answered with (`sso_requis`).
 *   It moves, value for value, to `sso_settings.legacy_authorize_url` of an enforced row, so a
 *   tenant that had one keeps answering it until an admin saves real settings.
 * - `sso_login_states`: a started sign-in (state, nonce, PKCE verifier), good once, for ten
 *   minutes. UNLOGGED like the login throttle: a crash only makes people start again.
 * - `refresh_tokens.sso_tenant_id`: a session opened by a tenant's provider is limited to that
 *   tenant, since the provider is the tenant admin's choice, not the platform's (it could
 *   assert any e-mail), so it cannot vouch for anyone anywhere else.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sso_settings (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      issuer text,
      client_id text,
      client_secret_sealed bytea,
      allowed_domains text[] NOT NULL DEFAULT '{}',
      default_role text,
      enforced boolean NOT NULL DEFAULT false,
      legacy_authorize_url text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT sso_settings_provider_complete CHECK (
        (issuer IS NULL AND client_id IS NULL AND client_secret_sealed IS NULL)
        OR (issuer IS NOT NULL AND client_id IS NOT NULL AND client_secret_sealed IS NOT NULL
            AND default_role IS NOT NULL)
      ),
      CONSTRAINT sso_settings_something_set CHECK (
        issuer IS NOT NULL OR legacy_authorize_url IS NOT NULL
      )
    );

    INSERT INTO sso_settings (tenant_id, legacy_authorize_url, enforced, updated_at)
    SELECT id, sso_authorize_url, true, updated_at FROM tenants WHERE sso_authorize_url IS NOT NULL;
    ALTER TABLE tenants DROP COLUMN sso_authorize_url;

    CREATE UNLOGGED TABLE sso_login_states (
      state_hash bytea PRIMARY KEY,
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      nonce text NOT NULL,
      code_verifier text NOT NULL,
      redirect_uri text NOT NULL,
      return_to text NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sso_login_states_expires_at ON sso_login_states (expires_at);

    ALTER TABLE refresh_tokens
      ADD COLUMN sso_tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE refresh_tokens DROP COLUMN sso_tenant_id;
    DROP TABLE sso_login_states;
    ALTER TABLE tenants ADD COLUMN sso_authorize_url text;
    UPDATE tenants t SET sso_authorize_url = s.legacy_authorize_url
      FROM sso_settings s WHERE s.tenant_id = t.id AND s.legacy_authorize_url IS NOT NULL;
    DROP TABLE sso_settings;
  `.execute(db);
}
