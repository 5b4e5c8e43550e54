import { type Kysely, sql } from 'kysely';

/**
 * The worker drains the `events` outbox itself, in batches (issue 17): no job per event.
 *
 * - **Writers pay their event row and nothing more.** The `webhook_fanout` trigger (a
 *   graphile-worker job and its NOTIFY per watched write, ~1 ms of PostgreSQL CPU, and notifying
 *   commits serialise) is gone. In its place a statement trigger reads one row: only while a
 *   worker sleeps (`webhook_outbox_wake.armed_until`, a lease the sleeping worker renews at each
 *   of its polls) does a write NOTIFY `webhook_outbox`, so the first event after a quiet spell
 *   wakes it at once; a busy worker disarms it and polls, and writers then pay one read of a
 *   one-row table. Without a live worker the lease runs out: no NOTIFY either.
 * - **`webhook_cursors`**: per tenant with subscriptions, how far its events are fanned out
 *   (`fanned_through`) and how far they are numbered (`numbered_through`, moved by
 *   `assign_event_sequences()`, which numbers only committed events in commit order: the
 *   sequence is the outbox's cursor, no event committed late is skipped). The partial index
 *   names the tenants with work. A tenant's first subscription opens its cursor at its last
 *   number (a subscription receives the events recorded after it), its last one closes it.
 * - **`webhook_claims`**: the deliveries a worker process created and is attempting, under its
 *   heartbeat's process id. The claim is deleted by the statement that records those attempts;
 *   a process whose heartbeat stops (killed, stuck) leaves its claims, and a live worker takes
 *   them over and attempts what is still unattempted: at least once.
 * - `webhook_outbox_ready()`: the worker's poll. Numbers what committed (unless another session
 *   is numbering right now), then says whether a cursor is behind (`behind`) and whether a claim
 *   is orphaned (`orphaned`).
 * - Pending `webhook_fanout` jobs: their tenants' cursors start before the first of their
 *   events, and the jobs that no worker holds are removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Reading every tenant's events and counters (forced row-level security), until the end.
    SELECT set_config('app.worker', 'on', true);

    CREATE TABLE webhook_cursors (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      fanned_through bigint NOT NULL,
      numbered_through bigint NOT NULL,
      fanned_at timestamptz NOT NULL DEFAULT now()
    );
    -- The tenants with events to fan out, the one served longest ago first.
    CREATE INDEX webhook_cursors_behind ON webhook_cursors (fanned_at)
      WHERE fanned_through < numbered_through;

    CREATE TABLE webhook_claims (
      id uuid PRIMARY KEY DEFAULT erp_uuidv7(),
      process_id text NOT NULL,
      delivery_ids uuid[] NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE UNLOGGED TABLE webhook_outbox_wake (
      one boolean PRIMARY KEY DEFAULT true CHECK (one),
      armed_until timestamptz
    );

    INSERT INTO webhook_cursors (tenant_id, fanned_through, numbered_through)
    SELECT t.tenant_id,
      least(coalesce(s.last_value, 0), coalesce(p.first - 1, coalesce(s.last_value, 0))),
      coalesce(s.last_value, 0)
    FROM (SELECT DISTINCT tenant_id FROM webhook_subscriptions) t
    LEFT JOIN event_sequences s USING (tenant_id)
    LEFT JOIN (
      SELECT e.tenant_id, min(e.sequence) AS first
      FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      JOIN events e ON e.id = (j.payload->>'event_id')::uuid
      WHERE t.identifier = 'webhook_fanout'
      GROUP BY e.tenant_id
    ) p USING (tenant_id);
    SELECT graphile_worker.complete_jobs(
      ARRAY(SELECT id FROM graphile_worker.jobs WHERE task_identifier = 'webhook_fanout'));

    DROP TRIGGER events_webhook_fanout ON events;
    DROP FUNCTION enqueue_webhook_fanout();

    CREATE FUNCTION webhook_outbox_notify() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      IF (SELECT armed_until > now() FROM webhook_outbox_wake) THEN
        PERFORM pg_notify('webhook_outbox', '');
      END IF;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER events_webhook_wake AFTER INSERT ON events
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox_notify();

    -- A tenant's first subscription opens its cursor at its last number. Under the numbering's
    -- lock: a numbering running now has committed before the counter is read, and the next one
    -- sees the cursor (so it moves numbered_through).
    CREATE FUNCTION webhook_cursor_open() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM new_subscriptions n
                     WHERE NOT EXISTS (SELECT 1 FROM webhook_cursors c WHERE c.tenant_id = n.tenant_id)) THEN
        RETURN NULL;
      END IF;
      PERFORM pg_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0));
      INSERT INTO webhook_cursors (tenant_id, fanned_through, numbered_through)
      SELECT n.tenant_id, coalesce(s.last_value, 0), coalesce(s.last_value, 0)
      FROM (SELECT DISTINCT tenant_id FROM new_subscriptions) n
      LEFT JOIN event_sequences s USING (tenant_id)
      ON CONFLICT (tenant_id) DO NOTHING;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER webhook_subscriptions_cursor_open AFTER INSERT ON webhook_subscriptions
      REFERENCING NEW TABLE AS new_subscriptions
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_cursor_open();

    CREATE FUNCTION webhook_cursor_close() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      DELETE FROM webhook_cursors c
      WHERE c.tenant_id IN (SELECT tenant_id FROM old_subscriptions)
        AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.tenant_id = c.tenant_id);
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER webhook_subscriptions_cursor_close AFTER DELETE ON webhook_subscriptions
      REFERENCING OLD TABLE AS old_subscriptions
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_cursor_close();

    -- As in 2026-11-24-0018, and each numbered tenant's cursor moves with its counter.
    CREATE OR REPLACE FUNCTION assign_event_sequences() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    BEGIN
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'assign_event_sequences() runs in READ COMMITTED only';
      END IF;
      IF NOT EXISTS (SELECT 1 FROM events WHERE sequence IS NULL AND type <> 'webhook.test') THEN
        RETURN;
      END IF;
      PERFORM pg_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0));
      WITH pending AS (
        SELECT id, tenant_id, row_number() OVER (PARTITION BY tenant_id ORDER BY recorded_at NULLS FIRST, id) AS n
        FROM (
          SELECT id, tenant_id, recorded_at FROM events
          WHERE sequence IS NULL AND type <> 'webhook.test'
          ORDER BY recorded_at NULLS FIRST, id
          LIMIT 50000
        ) oldest
      ),
      counts AS (SELECT tenant_id, max(n) AS n FROM pending GROUP BY tenant_id),
      counters AS (
        INSERT INTO event_sequences AS s (tenant_id, last_value)
        SELECT tenant_id, n FROM counts
        ON CONFLICT (tenant_id) DO UPDATE SET last_value = s.last_value + excluded.last_value
        RETURNING s.tenant_id, s.last_value
      ),
      cursors AS (
        UPDATE webhook_cursors w SET numbered_through = c.last_value
        FROM counters c WHERE w.tenant_id = c.tenant_id
      )
      UPDATE events e SET sequence = c.last_value - k.n + p.n
      FROM pending p JOIN counts k USING (tenant_id) JOIN counters c USING (tenant_id)
      WHERE e.id = p.id;
    END
    $fn$;

    CREATE FUNCTION webhook_outbox_ready(OUT behind boolean, OUT orphaned boolean)
    LANGUAGE plpgsql AS $fn$
    BEGIN
      -- Another session numbering now moves the cursors itself: no need to queue behind it.
      IF EXISTS (SELECT 1 FROM events WHERE sequence IS NULL AND type <> 'webhook.test')
         AND pg_try_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0)) THEN
        PERFORM assign_event_sequences();
      END IF;
      behind := EXISTS (SELECT 1 FROM webhook_cursors WHERE fanned_through < numbered_through);
      orphaned := EXISTS (SELECT 1 FROM webhook_claims c
        WHERE NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.process_id = c.process_id));
    END
    $fn$;
    SELECT set_config('app.worker', '', true);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION webhook_outbox_ready();
    DROP TRIGGER webhook_subscriptions_cursor_close ON webhook_subscriptions;
    DROP TRIGGER webhook_subscriptions_cursor_open ON webhook_subscriptions;
    DROP FUNCTION webhook_cursor_close(), webhook_cursor_open();
    DROP TRIGGER events_webhook_wake ON events;
    DROP FUNCTION webhook_outbox_notify();
    DROP TABLE webhook_outbox_wake, webhook_claims, webhook_cursors;

    CREATE OR REPLACE FUNCTION assign_event_sequences() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    BEGIN
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'assign_event_sequences() runs in READ COMMITTED only';
      END IF;
      IF NOT EXISTS (SELECT 1 FROM events WHERE sequence IS NULL AND type <> 'webhook.test') THEN
        RETURN;
      END IF;
      PERFORM pg_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0));
      WITH pending AS (
        SELECT id, tenant_id, row_number() OVER (PARTITION BY tenant_id ORDER BY recorded_at NULLS FIRST, id) AS n
        FROM (
          SELECT id, tenant_id, recorded_at FROM events
          WHERE sequence IS NULL AND type <> 'webhook.test'
          ORDER BY recorded_at NULLS FIRST, id
          LIMIT 50000
        ) oldest
      ),
      counts AS (SELECT tenant_id, max(n) AS n FROM pending GROUP BY tenant_id),
      counters AS (
        INSERT INTO event_sequences AS s (tenant_id, last_value)
        SELECT tenant_id, n FROM counts
        ON CONFLICT (tenant_id) DO UPDATE SET last_value = s.last_value + excluded.last_value
        RETURNING s.tenant_id, s.last_value
      )
      UPDATE events e SET sequence = c.last_value - k.n + p.n
      FROM pending p JOIN counts k USING (tenant_id) JOIN counters c USING (tenant_id)
      WHERE e.id = p.id;
    END
    $fn$;

    -- 2026-11-23-0009's fan-out trigger (events recorded meanwhile are not fanned out).
    CREATE FUNCTION enqueue_webhook_fanout() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      PERFORM graphile_worker.add_jobs(specs)
      FROM (
        SELECT array_agg(ROW('webhook_fanout', json_build_object('event_id', e.id), NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec) AS specs
        FROM new_events e
        WHERE e.type <> 'webhook.test' AND EXISTS (
          SELECT 1 FROM webhook_subscriptions s
          WHERE s.tenant_id = e.tenant_id AND s.enabled AND e.type = ANY (s.events)
        )
      ) wanted
      WHERE specs IS NOT NULL;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER events_webhook_fanout AFTER INSERT ON events
      REFERENCING NEW TABLE AS new_events
      FOR EACH STATEMENT EXECUTE FUNCTION enqueue_webhook_fanout();
  `.execute(db);
}
