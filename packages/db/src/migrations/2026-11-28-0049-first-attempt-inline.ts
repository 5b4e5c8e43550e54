import { type Kysely, sql } from 'kysely';

/**
 * A webhook delivery is written once, after its first attempt (issue 30). Until now the outbox
 * drain wrote each delivery three times: inserted `pending` when claimed, updated when its first
 * attempt ended, and that attempt inserted into `webhook_delivery_attempts` (with a reference
 * check on the delivery) — most of the PostgreSQL time a delivery cost, twice what a
 * graphile-worker job costs.
 *
 * - **`webhook_claims`** carries the deliveries it claims (their ids, made when claimed, so a
 *   worker that takes over a dead one's claim sends the same `X-Service-Delivery-Id`), with
 *   their tenant, event and subscription; the claim is what makes them durable until their
 *   first attempt is recorded. The statement that records the attempts inserts the deliveries
 *   in their state after it, and deletes the claim.
 * - **`webhook_deliveries`** keeps its first attempt in the row (`first_*`, null until then);
 *   `webhook_delivery_attempts` logs the attempts after it (retries, replays). The attempt log
 *   the API serves is the first attempt followed by the log. Deliveries recorded before this
 *   migration keep their first attempt in the log and null `first_*`.
 *
 * Deliveries claimed when this runs (inserted `pending`, never attempted) move back into their
 * claim, so a worker of this version sends them, under the same ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_deliveries
      ADD COLUMN first_manual boolean,
      ADD COLUMN first_started_at timestamptz,
      ADD COLUMN first_duration_ms integer,
      ADD COLUMN first_response_status integer,
      ADD COLUMN first_response_excerpt text,
      ADD COLUMN first_error text,
      ADD CONSTRAINT webhook_deliveries_first_attempt CHECK (
        (first_started_at IS NULL AND first_manual IS NULL AND first_duration_ms IS NULL
          AND first_response_status IS NULL AND first_response_excerpt IS NULL AND first_error IS NULL)
        OR (first_started_at IS NOT NULL AND first_manual IS NOT NULL AND first_duration_ms IS NOT NULL
          AND attempts >= 1));

    ALTER TABLE webhook_claims
      ADD COLUMN tenant_ids uuid[],
      ADD COLUMN event_ids uuid[],
      ADD COLUMN subscription_ids uuid[];
    UPDATE webhook_claims c SET delivery_ids = x.ids, tenant_ids = x.tenants, event_ids = x.events,
      subscription_ids = x.subscriptions
    FROM (
      SELECT c2.id, array_agg(d.id ORDER BY d.id) AS ids, array_agg(d.tenant_id ORDER BY d.id) AS tenants,
        array_agg(d.event_id ORDER BY d.id) AS events, array_agg(d.subscription_id ORDER BY d.id) AS subscriptions
      FROM webhook_claims c2
      JOIN webhook_deliveries d ON d.id = ANY (c2.delivery_ids) AND d.status = 'pending' AND d.attempts = 0
      GROUP BY c2.id
    ) x
    WHERE x.id = c.id;
    DELETE FROM webhook_deliveries d USING webhook_claims c
      WHERE c.event_ids IS NOT NULL AND d.id = ANY (c.delivery_ids) AND d.status = 'pending' AND d.attempts = 0;
    DELETE FROM webhook_claims WHERE event_ids IS NULL;
    ALTER TABLE webhook_claims
      ALTER COLUMN tenant_ids SET NOT NULL,
      ALTER COLUMN event_ids SET NOT NULL,
      ALTER COLUMN subscription_ids SET NOT NULL,
      ADD CONSTRAINT webhook_claims_parallel CHECK (
        cardinality(tenant_ids) = cardinality(delivery_ids)
        AND cardinality(event_ids) = cardinality(delivery_ids)
        AND cardinality(subscription_ids) = cardinality(delivery_ids));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type)
    SELECT c.id, c.tenant_id, c.subscription_id, c.event_id, e.type
    FROM webhook_claims w
    CROSS JOIN LATERAL unnest(w.delivery_ids, w.tenant_ids, w.event_ids, w.subscription_ids)
      AS c(id, tenant_id, event_id, subscription_id)
    JOIN events e ON e.tenant_id = c.tenant_id AND e.id = c.event_id
    ON CONFLICT DO NOTHING;
    ALTER TABLE webhook_claims DROP CONSTRAINT webhook_claims_parallel,
      DROP COLUMN subscription_ids, DROP COLUMN event_ids, DROP COLUMN tenant_ids;
    INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, attempt, manual, started_at,
      duration_ms, response_status, response_excerpt, error)
    SELECT tenant_id, id, 1, first_manual, first_started_at, first_duration_ms, first_response_status,
      first_response_excerpt, first_error
    FROM webhook_deliveries WHERE first_started_at IS NOT NULL;
    ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_first_attempt,
      DROP COLUMN first_error, DROP COLUMN first_response_excerpt, DROP COLUMN first_response_status,
      DROP COLUMN first_duration_ms, DROP COLUMN first_started_at, DROP COLUMN first_manual;
  `.execute(db);
}
