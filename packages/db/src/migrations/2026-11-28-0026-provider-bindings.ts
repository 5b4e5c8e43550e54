import { type Kysely, sql } from 'kysely';

/**
 * What a payment provider's event may decide (SPEC §8, wave 3).
 *
 * - `landing.provider_bindings`: the tenant a provider subscription (and its customer) was bound
 *   to when its first purchase provisioned it. Later changes of that subscription apply to this
 *   tenant only, never to one named in the checkout's metadata. Written by the worker once the
 *   portal answered the provisioning; never updated.
 * - `landing.provider_events` gains the provider's customer and subscription ids (the binding's
 *   key), and the outcome `waiting`: an event of a subscription no purchase has bound yet (a
 *   subscription event before its checkout, or from a customer we never sold to). It changes
 *   nothing; the binding of its subscription wakes it.
 * - `landing.onboarding_references`: the claim tokens landing issues at
 *   `POST /api/onboarding/start`, by their SHA-256 only (a 256-bit token needs no slow hash).
 *   `landing.onboardings.reference` now holds that digest too, never a provider id: the
 *   unclaimed first passwords of rows keyed by a checkout id are erased, as such rows can no
 *   longer be claimed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE landing.provider_bindings (
      provider text NOT NULL,
      provider_subscription_id text NOT NULL,
      provider_customer_id text NOT NULL,
      tenant_id uuid NOT NULL,
      tenant_slug text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, provider_subscription_id)
    );
    CREATE INDEX provider_bindings_customer ON landing.provider_bindings (provider, provider_customer_id);

    ALTER TABLE landing.provider_events
      ADD COLUMN provider_customer_id text,
      ADD COLUMN provider_subscription_id text,
      DROP CONSTRAINT provider_events_outcome_check,
      ADD CONSTRAINT provider_events_outcome_check
        CHECK (outcome IN ('queued', 'waiting', 'ignored', 'forwarded'));
    CREATE INDEX provider_events_subscription ON landing.provider_events (provider, provider_subscription_id)
      WHERE provider_subscription_id IS NOT NULL;

    CREATE TABLE landing.onboarding_references (
      reference_sha256 text PRIMARY KEY CHECK (reference_sha256 ~ '^[0-9a-f]{64}$'),
      plan_code text NOT NULL,
      email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );

    UPDATE landing.onboardings SET initial_password = NULL
    WHERE reference !~ '^[0-9a-f]{64}$' AND initial_password IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE landing.onboarding_references, landing.provider_bindings;
    DELETE FROM landing.provider_events WHERE outcome = 'waiting';
    ALTER TABLE landing.provider_events
      DROP COLUMN provider_customer_id,
      DROP COLUMN provider_subscription_id,
      DROP CONSTRAINT provider_events_outcome_check,
      ADD CONSTRAINT provider_events_outcome_check
        CHECK (outcome IN ('queued', 'ignored', 'forwarded'));
  `.execute(db);
}
