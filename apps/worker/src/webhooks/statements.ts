/**
 * The worker's SQL. Each runs as one statement (atomic on its own, one round trip), on
 * connections marked `app.worker = on`, which the `events` row-level policy admits, and as a
 * named prepared statement (parsed and planned once per connection).
 */

/** What sending one attempt needs: the delivery, its event and its subscription. */
const TARGET_COLUMNS = `
  ev.id AS event_id, ev.type AS event_type, ev.created_at AS event_created_at, ev.tenant_id,
  ev.sequence::text AS sequence, ev.data::text AS data, s.id AS subscription_id, s.url, s.enabled, s.webhook_version,
  s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at`;

/**
 * Numbers the events committed so far (per tenant, `assign_event_sequences`) and names those of
 * $1 still without a number: their fan-out waits, a delivery never leaves without it.
 */
export const AWAIT_SEQUENCES = named(
  'webhook_await_sequences',
  'SELECT id FROM events_awaiting_sequence($1::uuid[]) AS id',
);

/**
 * Fan-out of a batch of events (those numbered already): one delivery per matching enabled subscription (the unique
 * (event, subscription) pair makes a re-run create none twice), returned with every delivery
 * of these events still waiting for its first attempt (a re-run after a crash finds those too).
 */
export const FANOUT = named(
  'webhook_fanout',
  `
  WITH ev AS (SELECT * FROM events WHERE id = ANY ($1::uuid[]) AND sequence IS NOT NULL),
  created AS (
    INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type)
    SELECT ev.tenant_id, s.id, ev.id, ev.type
    FROM ev JOIN webhook_subscriptions s
      ON s.tenant_id = ev.tenant_id AND s.enabled AND ev.type = ANY (s.events)
    ORDER BY ev.id, s.id
    ON CONFLICT (event_id, subscription_id) DO NOTHING
    RETURNING id, subscription_id, event_id
  ),
  todo AS (
    SELECT id, subscription_id, event_id FROM created
    UNION ALL
    SELECT d.id, d.subscription_id, d.event_id FROM webhook_deliveries d
    WHERE d.event_id = ANY ($1::uuid[]) AND d.status = 'pending' AND d.attempts = 0
  )
  SELECT todo.id AS delivery_id, 0 AS attempts, 'pending' AS status, ${TARGET_COLUMNS}
  FROM todo
  JOIN webhook_subscriptions s ON s.id = todo.subscription_id
  JOIN ev ON ev.id = todo.event_id`,
);

/** One delivery, for a retry or a replay. */
export const LOAD_DELIVERY = named(
  'webhook_load_delivery',
  `
  SELECT d.id AS delivery_id, d.attempts, d.status, ${TARGET_COLUMNS}
  FROM webhook_deliveries d
  JOIN events ev ON ev.id = d.event_id
  JOIN webhook_subscriptions s ON s.id = d.subscription_id
  WHERE d.id = $1`,
);

/**
 * Records a batch of attempts in one statement: numbers each attempt from the delivery's
 * counter, writes the attempt log, moves the delivery on, disables subscriptions that
 * answered 410, and enqueues the next attempts ($10–$12: task, max runs, job key prefix).
 */
export const RECORD_ATTEMPTS = named(
  'webhook_record_attempts',
  `
  WITH o AS (
    SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[])
      AS o(delivery_id, manual, started_at, duration_ms, response_status, response_excerpt, error, outcome, delay_ms)
  ),
  d AS (
    UPDATE webhook_deliveries d SET
      attempts = d.attempts + 1,
      status = CASE o.outcome WHEN 'delivered' THEN 'delivered' WHEN 'retry' THEN 'pending' ELSE 'failed' END,
      next_attempt_at = now() + o.delay_ms * interval '1 millisecond',
      last_response_status = o.response_status,
      last_error = o.error,
      delivered_at = CASE WHEN o.outcome = 'delivered' THEN now() ELSE d.delivered_at END,
      updated_at = now()
    FROM o WHERE d.id = o.delivery_id
    RETURNING d.id, d.attempts, d.subscription_id, o.outcome, d.next_attempt_at
  ),
  logged AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, manual, started_at, duration_ms, response_status, response_excerpt, error)
    SELECT d.id, d.attempts, o.manual, o.started_at, o.duration_ms, o.response_status, o.response_excerpt, o.error
    FROM d JOIN o ON o.delivery_id = d.id
  ),
  gone AS (
    UPDATE webhook_subscriptions s SET enabled = false, disabled_reason = 'gone', updated_at = now()
    FROM d WHERE d.outcome = 'gone' AND s.id = d.subscription_id
  )
  SELECT graphile_worker.add_jobs(array_agg(ROW(
    $10::text, json_build_object('delivery_id', d.id, 'attempt', d.attempts + 1, 'manual', false),
    NULL, d.next_attempt_at, $11::int, $12::text || d.id, NULL, NULL)::graphile_worker.job_spec))
  FROM d WHERE d.outcome = 'retry'
  HAVING count(*) > 0`,
);

/** A delivery whose subscription was disabled or deleted meanwhile: no attempt, failed. */
export const ABANDON_DELIVERY = named(
  'webhook_abandon_delivery',
  `
  UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
    last_error = 'subscription disabled', updated_at = now()
  WHERE id = $1 AND status = 'pending'`,
);

function named(name: string, text: string) {
  return { name, text };
}
