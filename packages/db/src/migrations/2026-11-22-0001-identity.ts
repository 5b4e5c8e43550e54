import { type Kysely, sql } from 'kysely';

/** Plans, tenants, users, memberships, sessions' refresh tokens and API keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE plans (
      code text PRIMARY KEY CHECK (code ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      currency char(3) NOT NULL,
      monthly_price_cents integer NOT NULL CHECK (monthly_price_cents >= 0),
      yearly_price_cents integer NOT NULL CHECK (yearly_price_cents >= 0),
      modules text[] NOT NULL,
      max_users integer,
      is_public boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE tenants (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$'),
      name text NOT NULL,
      plan_code text REFERENCES plans (code),
      modules text[] NOT NULL DEFAULT '{}',
      sso_authorize_url text,
      rate_limit_per_minute integer NOT NULL DEFAULT 3000 CHECK (rate_limit_per_minute > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      plan_code text NOT NULL REFERENCES plans (code),
      status text NOT NULL,
      provider text NOT NULL,
      provider_subscription_id text NOT NULL,
      current_period_end timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, provider_subscription_id)
    );
    CREATE INDEX subscriptions_tenant ON subscriptions (tenant_id);

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email text NOT NULL,
      name text NOT NULL,
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email ON users (lower(email));

    CREATE TABLE memberships (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      roles text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, user_id)
    );
    CREATE INDEX memberships_user ON memberships (user_id);

    CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      family_id uuid NOT NULL,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

    CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      holder_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      name text NOT NULL,
      prefix text NOT NULL UNIQUE,
      secret_hash bytea NOT NULL,
      scopes text[] NOT NULL,
      rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE api_keys, refresh_tokens, memberships, users, subscriptions, tenants, plans;
  `.execute(db);
}
