/**
 * The worker's SQL. Each runs as one statement (atomic on its own, one round trip), on
 * connections marked `app.worker = on`, which the `events` row-level policy admits, and as a
 * named prepared statement (parsed and planned once per connection).
 */

/** A row of CLAIM_EVENTS or LOAD_DELIVERY: one delivery with its event and subscription. */
export interface DeliveryTarget {
  delivery_id: string;
  attempts: number;
  status: string;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  tenant_id: string;
  /** The event's place in its tenant's feed (bigint as text); null for a test delivery. */
  sequence: string | null;
  data: string;
  subscription_id: string;
  url: string;
  enabled: boolean;
  webhook_version: string;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  /** The W3C traceparent of the request that recorded the event; null when not traced. */
  trace_context: string | null;
}

/** What sending one attempt needs: the delivery, its event and its subscription. */
const TARGET_COLUMNS = `
  ev.id AS event_id, ev.type AS event_type, ev.created_at AS event_created_at, ev.tenant_id,
  ev.sequence::text AS sequence, ev.data::text AS data, s.id AS subscription_id, s.url, s.enabled, s.webhook_version,
  s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at, ev.trace_context`;

/**
 * The drain's poll: numbers the events committed so far (unless another session is numbering
 * them now), then says whether some tenant has numbered events not yet fanned out, or some
 * claim belongs to a process whose heartbeat stopped.
 */
export const OUTBOX_READY = named(
  'webhook_outbox_ready',
  'SELECT behind, orphaned FROM webhook_outbox_ready()',
);

/**
 * Arms the wake-up for $1 ms, or disarms it ($1 null): while armed, a write of events NOTIFYs
 * `webhook_outbox` (the `events_webhook_wake` trigger). A sleeping worker renews the lease at
 * each of its polls, one that drains disarms it: under load writers pay no NOTIFY (notifying
 * commits serialise), and without a live worker the lease runs out. Unlogged: after a crash the
 * row is written again.
 */
export const SET_WAKE = named(
  'webhook_set_wake',
  `INSERT INTO webhook_outbox_wake (armed_until) VALUES (now() + $1 * interval '1 millisecond')
   ON CONFLICT (one) DO UPDATE SET armed_until = excluded.armed_until`,
);

/**
 * Claims a batch from the outbox, in one statement: the cursors of up to $4 tenants with
 * numbered events not yet fanned out (the one served longest ago first; a cursor another worker
 * holds is skipped), from each its next events in sequence order, as many as keep its
 * deliveries near $2 (at most $3 events), then one delivery per matching enabled subscription
 * created before the event (each pair once: the cursors move past the events in the same
 * statement), claimed under the process id $1. Returned with event and secrets.
 *
 * The deliveries are not written yet: the claim holds them (ids made here, tenant, event,
 * subscription), and RECORD_ATTEMPTS inserts each once its first attempt has ended, in the
 * statement that deletes the claim (migration 0049: one write a delivery instead of three).
 *
 * A cursor moves to the last event read; past a range with no event left only up to the
 * retention's mark (an event numbered after this statement's snapshot is never skipped).
 * Always one row at least: `moved` counts the cursors moved (progress even when no event of
 * the range is wanted), the other columns are null without deliveries.
 */
export const CLAIM_EVENTS = named(
  'webhook_claim_events',
  `
  WITH c AS (
    SELECT w.tenant_id, w.fanned_through, w.numbered_through
    FROM webhook_cursors w
    WHERE w.fanned_through < w.numbered_through
    ORDER BY w.fanned_at
    LIMIT $4
    FOR UPDATE SKIP LOCKED
  ),
  budget AS (
    SELECT c.*, greatest(1, least($3::int, $2::int / greatest(1, (
      SELECT count(*) FROM webhook_subscriptions s WHERE s.tenant_id = c.tenant_id AND s.enabled))))::int AS take
    FROM c
  ),
  ev AS (
    SELECT e.* FROM budget b CROSS JOIN LATERAL (
      -- The data as text once per event, not once per delivery of it (TARGET_COLUMNS).
      SELECT e.id, e.type, e.created_at, e.tenant_id, e.sequence, e.recorded_at, e.data::text AS data,
        e.trace_context
      FROM events e
      WHERE e.tenant_id = b.tenant_id AND e.sequence > b.fanned_through AND e.sequence <= b.numbered_through
      ORDER BY e.sequence
      LIMIT b.take
    ) e
  ),
  moved AS (
    UPDATE webhook_cursors w SET
      fanned_through = greatest(m.top, CASE WHEN coalesce(m.n, 0) < b.take
        THEN least(coalesce(q.purged_through, 0), b.numbered_through) END, b.fanned_through),
      fanned_at = now()
    FROM budget b
    LEFT JOIN (SELECT tenant_id, count(*) AS n, max(sequence) AS top FROM ev GROUP BY tenant_id) m USING (tenant_id)
    LEFT JOIN event_sequences q USING (tenant_id)
    WHERE w.tenant_id = b.tenant_id
    RETURNING w.tenant_id
  ),
  pairs AS (
    -- The deliveries' ids made here, in event order, kept by the claim until recorded.
    SELECT erp_uuidv7() AS id, p.* FROM (
      SELECT ev.tenant_id, s.id AS subscription_id, ev.id AS event_id
      FROM ev JOIN webhook_subscriptions s
        ON s.tenant_id = ev.tenant_id AND s.enabled AND ev.type = ANY (s.events)
        AND s.created_at <= coalesce(ev.recorded_at, ev.created_at)
      ORDER BY ev.sequence, s.id
    ) p
  ),
  claim AS (
    INSERT INTO webhook_claims (process_id, delivery_ids, tenant_ids, event_ids, subscription_ids)
    SELECT $1, array_agg(id), array_agg(tenant_id), array_agg(event_id), array_agg(subscription_id)
    FROM pairs HAVING count(*) > 0
    RETURNING id
  ),
  targets AS (
    SELECT claim.id AS claim_id, pairs.id AS delivery_id, 0 AS attempts, 'pending' AS status, ${TARGET_COLUMNS}
    FROM pairs
    CROSS JOIN claim
    JOIN webhook_subscriptions s ON s.id = pairs.subscription_id
    JOIN ev ON ev.id = pairs.event_id
  )
  SELECT m.moved, t.* FROM (SELECT count(*)::int AS moved FROM moved) m LEFT JOIN targets t ON true`,
);

/**
 * Takes over the claims of processes whose heartbeat stopped (at most $2; one another worker is
 * taking over is skipped): their deliveries not attempted yet are claimed again under $1 and
 * returned, with event and secrets, to be attempted now.
 */
export const TAKE_OVER_CLAIMS = named(
  'webhook_take_over_claims',
  `
  WITH orphan AS (
    SELECT c.id, c.delivery_ids, c.tenant_ids, c.event_ids, c.subscription_ids FROM webhook_claims c
    WHERE NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.process_id = c.process_id)
    ORDER BY c.id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
  ),
  released AS (DELETE FROM webhook_claims c USING orphan o WHERE c.id = o.id),
  todo AS (
    SELECT p.* FROM orphan o
    CROSS JOIN LATERAL unnest(o.delivery_ids, o.tenant_ids, o.event_ids, o.subscription_ids)
      AS p(id, tenant_id, event_id, subscription_id)
    -- Not recorded already (a process that stopped beating may still have recorded them), and
    -- still wanted: its event and subscription not deleted meanwhile.
    WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.tenant_id = p.tenant_id AND d.id = p.id)
      AND EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.tenant_id = p.tenant_id AND s.id = p.subscription_id)
      AND EXISTS (SELECT 1 FROM events e WHERE e.tenant_id = p.tenant_id AND e.id = p.event_id)
  ),
  claim AS (
    INSERT INTO webhook_claims (process_id, delivery_ids, tenant_ids, event_ids, subscription_ids)
    SELECT $1, array_agg(id), array_agg(tenant_id), array_agg(event_id), array_agg(subscription_id)
    FROM todo HAVING count(*) > 0
    RETURNING id
  )
  SELECT claim.id AS claim_id, todo.id AS delivery_id, 0 AS attempts, 'pending' AS status, ${TARGET_COLUMNS}
  FROM todo
  CROSS JOIN claim
  JOIN webhook_subscriptions s ON s.tenant_id = todo.tenant_id AND s.id = todo.subscription_id
  JOIN events ev ON ev.tenant_id = todo.tenant_id AND ev.id = todo.event_id`,
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

/** A delivery's state after an attempt, from the attempt's outcome (`o`): insert and update alike. */
const AFTER_ATTEMPT = {
  status: `CASE o.outcome WHEN 'delivered' THEN 'delivered' WHEN 'retry' THEN 'pending' ELSE 'failed' END`,
  nextAttemptAt: `now() + o.delay_ms * interval '1 millisecond'`,
};

/**
 * Records a batch of attempts in one statement: the first attempt of a claimed delivery inserts
 * the delivery in its state after it ($17–$19: its tenant, subscription and event; null for a
 * delivery already written, which the attempt updates, numbered from its counter), the first
 * attempt kept in the delivery's row and the later ones in the attempt log; it keeps
 * each subscription's health, enqueues the next attempts ($10–$12: task, max runs, job key
 * prefix) and releases the claims the attempts answer ($16).
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
    SELECT * FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[],
        $17::uuid[], $18::uuid[], $19::uuid[])
      AS o(delivery_id, manual, started_at, duration_ms, response_status, response_excerpt, error, outcome, delay_ms,
        tenant_id, subscription_id, event_id)
  ),
  inserted AS (
    -- First attempts of claimed deliveries: the delivery written once, in its state after it
    -- (one whose event or subscription was deleted meanwhile is not written; one a worker that
    -- took over the claim recorded already is not written twice).
    INSERT INTO webhook_deliveries AS d (id, tenant_id, subscription_id, event_id, event_type,
      status, attempts, next_attempt_at, last_response_status, last_error, delivered_at,
      first_manual, first_started_at, first_duration_ms, first_response_status, first_response_excerpt, first_error)
    SELECT o.delivery_id, o.tenant_id, o.subscription_id, o.event_id, o.event_type,
      ${AFTER_ATTEMPT.status}, 1, ${AFTER_ATTEMPT.nextAttemptAt}, o.response_status, o.error,
      CASE WHEN o.outcome = 'delivered' THEN now() END,
      o.manual, o.started_at, o.duration_ms, o.response_status, o.response_excerpt, o.error
    FROM (
      -- Looked up per delivery by primary key (subqueries the planner keeps as such: a join
      -- here may be planned, once for all, as a scan of every event).
      SELECT o.*,
        (SELECT e.type FROM events e WHERE e.tenant_id = o.tenant_id AND e.id = o.event_id) AS event_type,
        (SELECT true FROM webhook_subscriptions s WHERE s.tenant_id = o.tenant_id AND s.id = o.subscription_id) AS subscribed
      FROM o WHERE o.event_id IS NOT NULL
    ) o
    WHERE o.event_type IS NOT NULL AND o.subscribed
    ON CONFLICT DO NOTHING
    RETURNING d.id, d.tenant_id, d.attempts, d.subscription_id, d.next_attempt_at
  ),
  updated AS (
    -- Attempts of deliveries already written (retries, replays, test deliveries): the first
    -- one kept in the row, the others in the attempt log.
    UPDATE webhook_deliveries d SET
      attempts = d.attempts + 1,
      status = ${AFTER_ATTEMPT.status},
      next_attempt_at = ${AFTER_ATTEMPT.nextAttemptAt},
      last_response_status = o.response_status,
      last_error = o.error,
      delivered_at = CASE WHEN o.outcome = 'delivered' THEN now() ELSE d.delivered_at END,
      updated_at = now(),
      first_manual = CASE WHEN d.attempts = 0 THEN o.manual ELSE d.first_manual END,
      first_started_at = CASE WHEN d.attempts = 0 THEN o.started_at ELSE d.first_started_at END,
      first_duration_ms = CASE WHEN d.attempts = 0 THEN o.duration_ms ELSE d.first_duration_ms END,
      first_response_status = CASE WHEN d.attempts = 0 THEN o.response_status ELSE d.first_response_status END,
      first_response_excerpt = CASE WHEN d.attempts = 0 THEN o.response_excerpt ELSE d.first_response_excerpt END,
      first_error = CASE WHEN d.attempts = 0 THEN o.error ELSE d.first_error END
    FROM o WHERE o.event_id IS NULL AND d.id = o.delivery_id
    RETURNING d.id, d.tenant_id, d.attempts, d.subscription_id, d.next_attempt_at
  ),
  d AS (
    SELECT w.*, o.outcome, o.started_at
    FROM (SELECT * FROM inserted UNION ALL SELECT * FROM updated) w JOIN o ON o.delivery_id = w.id
  ),
  logged AS (
    INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, attempt, manual, started_at, duration_ms, response_status, response_excerpt, error)
    SELECT d.tenant_id, d.id, d.attempts, o.manual, o.started_at, o.duration_ms, o.response_status, o.response_excerpt, o.error
    FROM d JOIN o ON o.delivery_id = d.id
    WHERE d.attempts > 1
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
  released AS (DELETE FROM webhook_claims WHERE id = ANY ($16::uuid[])),
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
