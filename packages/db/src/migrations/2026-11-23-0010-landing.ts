import { type Kysely, sql } from 'kysely';

/**
 * Landing (SPEC §8) and what the portal keeps about it.
 *
 * Schema `landing`, owned by apps/landing (the worker writes `forwarded_at` and onboardings):
 * - `plans`, `tenants`, `metadata`: the snapshot the portal's worker pushes to
 *   `/api/erp-sync`, replaced whole on each push; `sync_state` (one row) remembers the last.
 * - `provider_events`: one row per payment-provider event, keyed by the provider's own id
 *   (or a hash of the body), so a redelivery is recognised; `change` is the normalised
 *   subscription change the worker forwards to the portal.
 * - `leads`: contact and demo requests, kept until (and after) the worker forwards them.
 * - `onboardings`: what a new customer needs to log in after a checkout (their tenant and the
 *   generated first password), handed out once by reference, then erased.
 *
 * Portal side:
 * - `portal_access` (one row): Settings → Portal access, where the sync goes and how the last
 *   push went.
 * - `platform_leads`: leads landing forwarded, keyed by landing's id (replays are no-ops).
 * - `tenants.provisioning_key`: the `Idempotency-Key` a tenant was provisioned with, so a
 *   retried provisioning answers with the same tenant instead of `conflit`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE SCHEMA landing;

    CREATE TABLE landing.plans (
      code text PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      currency text NOT NULL,
      monthly_price_cents integer NOT NULL,
      yearly_price_cents integer NOT NULL,
      modules text[] NOT NULL,
      max_users integer,
      sort_order integer NOT NULL DEFAULT 0
    );

    CREATE TABLE landing.tenants (
      id uuid PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      name text NOT NULL,
      plan_code text,
      modules text[] NOT NULL,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE landing.metadata (
      key text PRIMARY KEY,
      value jsonb NOT NULL
    );

    CREATE TABLE landing.sync_state (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      last_sync_at timestamptz,
      generated_at timestamptz,
      payload_sha256 text,
      pushes_received bigint NOT NULL DEFAULT 0
    );
    INSERT INTO landing.sync_state DEFAULT VALUES;

    CREATE TABLE landing.provider_events (
      provider text NOT NULL,
      event_key text NOT NULL,
      event_type text NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('queued', 'ignored', 'forwarded')),
      reason text,
      change jsonb,
      received_at timestamptz NOT NULL DEFAULT now(),
      forwarded_at timestamptz,
      PRIMARY KEY (provider, event_key)
    );

    CREATE TABLE landing.leads (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('contact', 'demo')),
      name text NOT NULL,
      email text NOT NULL,
      company text,
      phone text,
      message text,
      details jsonb NOT NULL DEFAULT '{}',
      client_address text,
      created_at timestamptz NOT NULL DEFAULT now(),
      forwarded_at timestamptz
    );

    CREATE TABLE landing.onboardings (
      reference text PRIMARY KEY,
      provider text NOT NULL,
      tenant_slug text NOT NULL,
      admin_email text NOT NULL,
      initial_password text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      claimed_at timestamptz
    );

    CREATE TABLE portal_access (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      sync_url text,
      enabled boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now(),
      last_attempt_at timestamptz,
      last_success_at timestamptz,
      last_status text CHECK (last_status IN ('ok', 'failed', 'skipped')),
      last_target text,
      last_http_status integer,
      last_error text,
      last_counts jsonb
    );
    INSERT INTO portal_access DEFAULT VALUES;

    CREATE TABLE platform_leads (
      id uuid PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('contact', 'demo')),
      name text NOT NULL,
      email text NOT NULL,
      company text,
      phone text,
      message text,
      details jsonb NOT NULL DEFAULT '{}',
      submitted_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE tenants ADD COLUMN provisioning_key text UNIQUE;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE tenants DROP COLUMN provisioning_key;
    DROP TABLE platform_leads, portal_access;
    DROP SCHEMA landing CASCADE;
  `.execute(db);
}
