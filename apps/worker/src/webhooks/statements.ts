/**
 * The worker's SQL. Each runs as one statement (atomic on its own, one round trip), on
 * connections marked `app.worker = on`, which the `events` row-level policy admits, and as a
 * named prepared statement (parsed and planned once per connection).
 */

/** What sending one attempt needs: the delivery, its event and its subscription. */
const TARGET_COLUMNS = `
  ev.id AS event_id, ev.type AS event_type, ev.created_at AS event_created_at, ev.tenant_id,
  ev.sequence::text AS sequence, ev.data::text AS data, s.id AS subscription_id, s.url, s.enabled, s.webhook_version,
  s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at, ev.trace_context`;

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
 * counter, writes the attempt log, moves the delivery on, keeps each subscription's health, and
 * enqueues the next attempts ($10–$12: task, max runs, job key prefix).
 *
 * Health (SPEC §12): `failing_since` is when the current run of failed attempts began and
 * `consecutive_failures` counts the deliveries that ended `failed` in it; a successful attempt
 * resets both. A subscription is written only when one of them changes (a healthy endpoint's
 * successes write nothing), locked first so concurrent workers count exactly. It is disabled,
 * with an audit row, when its endpoint answered 410, when $13 deliveries in a row ended
 * `failed`, or when every attempt has failed for $14 seconds (and at least one delivery used up
 * its retries since the subscription was last enabled, which gives a re-enabled endpoint the
 * same grace as a new one). Times are the attempts' own (the worker's clock). $15: the audit
 * action.
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
    RETURNING d.id, d.attempts, d.subscription_id, o.outcome, o.started_at, d.next_attempt_at
  ),
  logged AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, manual, started_at, duration_ms, response_status, response_excerpt, error)
    SELECT d.id, d.attempts, o.manual, o.started_at, o.duration_ms, o.response_status, o.response_excerpt, o.error
    FROM d JOIN o ON o.delivery_id = d.id
  ),
  last_success AS (
    SELECT subscription_id, max(started_at) FILTER (WHERE outcome = 'delivered') AS ok_at,
      bool_or(outcome = 'gone') AS gone
    FROM d GROUP BY subscription_id
  ),
  batch AS (
    SELECT b.subscription_id, b.ok_at, b.gone,
      min(d.started_at) FILTER (WHERE f.after) AS failed_from,
      max(d.started_at) FILTER (WHERE f.after) AS failed_to,
      count(*) FILTER (WHERE f.after AND d.outcome IN ('failed', 'gone'))::int AS ended
    FROM last_success b JOIN d USING (subscription_id)
    CROSS JOIN LATERAL (SELECT d.outcome <> 'delivered' AND (b.ok_at IS NULL OR d.started_at > b.ok_at) AS after) f
    GROUP BY b.subscription_id, b.ok_at, b.gone
  ),
  locked AS (
    SELECT s.id, s.tenant_id, s.enabled, s.consecutive_failures, s.failing_since,
      b.ok_at, b.gone, b.failed_from, b.failed_to, b.ended
    FROM webhook_subscriptions s JOIN batch b ON b.subscription_id = s.id
    WHERE (b.gone AND s.enabled)
       OR (b.ok_at IS NOT NULL AND (s.failing_since IS NOT NULL OR s.consecutive_failures > 0))
       OR (b.failed_from IS NOT NULL AND (s.failing_since IS NULL OR b.ended > 0
           OR (s.enabled AND s.consecutive_failures > 0 AND s.failing_since <= b.failed_to - $14 * interval '1 second')))
    FOR UPDATE OF s
  ),
  next AS (
    SELECT l.id, l.tenant_id, l.enabled AS was_enabled, l.gone, l.failed_to,
      CASE WHEN l.ok_at IS NULL THEN l.consecutive_failures ELSE 0 END + l.ended AS failures,
      CASE WHEN l.failed_from IS NULL THEN NULL
           WHEN l.ok_at IS NULL THEN coalesce(l.failing_since, l.failed_from)
           ELSE l.failed_from END AS failing_since
    FROM locked l
  ),
  judged AS (
    SELECT n.*, CASE
        WHEN NOT n.was_enabled THEN NULL
        WHEN n.gone THEN 'gone'
        WHEN n.failures >= $13 THEN 'failed_deliveries'
        WHEN n.failures > 0 AND n.failing_since <= n.failed_to - $14 * interval '1 second' THEN 'failing'
      END AS disabled_reason
    FROM next n
  ),
  health AS (
    UPDATE webhook_subscriptions s SET
      consecutive_failures = j.failures,
      failing_since = j.failing_since,
      enabled = s.enabled AND j.disabled_reason IS NULL,
      disabled_reason = coalesce(j.disabled_reason, s.disabled_reason),
      disabled_at = CASE WHEN j.disabled_reason IS NULL THEN s.disabled_at ELSE now() END,
      updated_at = CASE WHEN j.disabled_reason IS NULL THEN s.updated_at ELSE now() END
    FROM judged j WHERE s.id = j.id
  ),
  audited AS (
    INSERT INTO audit_log (tenant_id, action, target_type, target_id, details)
    SELECT j.tenant_id, $15::text, 'webhook_subscription', j.id, jsonb_build_object(
      'reason', j.disabled_reason, 'failing_since', j.failing_since, 'consecutive_failures', j.failures)
    FROM judged j WHERE j.disabled_reason IS NOT NULL
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
