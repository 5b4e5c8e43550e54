import { type Kysely, sql } from 'kysely';

/**
 * The event feed (SPEC §12): every event of a tenant gets a per-tenant `sequence`, dense and
 * without gaps, in an order a consumer following it can trust while transactions commit
 * concurrently (see docs/decisions.md, "Event feed").
 *
 * - Writers are unchanged: an event is inserted with `sequence` NULL and `recorded_at` from the
 *   column default (`clock_timestamp()`, the instant of the insert, finer than `created_at`,
 *   which is the transaction's start). They pay that default and one entry in a small partial
 *   index of the events still waiting for their number, instead of one in `events_tenant`
 *   (tenant, id), which no query uses and is dropped: the feed's (tenant, sequence) serves a
 *   tenant's events, and numbering rewrites each row once, updating every index.
 * - `assign_event_sequences()` numbers the waiting events after they commit: under one
 *   advisory lock (one numbering at a time), each call numbers what it can see, per tenant,
 *   after the tenant's last number (`event_sequences`), oldest `recorded_at` first. A row is
 *   visible only once its transaction committed, so an event that commits late is numbered
 *   after every number already handed out: a reader following `sequence` never misses it. The
 *   feed runs it before reading and the worker before fanning out (`events_awaiting_sequence`:
 *   a delivery never leaves without its number). SECURITY DEFINER with
 *   `app.worker = on` for its own duration: it numbers every tenant's events through their
 *   forced row-level security, and gives nothing back to its caller.
 * - `webhook.test` events are not business events: they get no number and stay out of the feed.
 * - `event_sequences.purged_through`: the retention job's mark; the feed starts after it.
 * - Existing events are numbered by this migration, in the order they were recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE events ADD COLUMN sequence bigint, ADD COLUMN recorded_at timestamptz;
    -- Set apart from ADD COLUMN so existing rows are not rewritten: they keep NULL and sort by id.
    ALTER TABLE events ALTER COLUMN recorded_at SET DEFAULT clock_timestamp();
    DROP INDEX events_tenant;
    CREATE UNIQUE INDEX events_feed ON events (tenant_id, sequence) WHERE sequence IS NOT NULL;
    CREATE INDEX events_unsequenced ON events (recorded_at, id)
      WHERE sequence IS NULL AND type <> 'webhook.test';

    CREATE TABLE event_sequences (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      last_value bigint NOT NULL DEFAULT 0,
      purged_through bigint NOT NULL DEFAULT 0
    );
    ALTER TABLE event_sequences ENABLE ROW LEVEL SECURITY;
    ALTER TABLE event_sequences FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON event_sequences
      USING (tenant_id = erp_tenant_id() OR erp_worker_session())
      WITH CHECK (tenant_id = erp_tenant_id() OR erp_worker_session());
    GRANT SELECT ON event_sequences TO erp_app;

    CREATE FUNCTION assign_event_sequences() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    BEGIN
      -- Each statement below must see the numbers committed before it (a fresh snapshot).
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'assign_event_sequences() runs in READ COMMITTED only';
      END IF;
      -- Nothing waiting (the usual case): no lock, one probe of a small partial index.
      IF NOT EXISTS (SELECT 1 FROM events WHERE sequence IS NULL AND type <> 'webhook.test') THEN
        RETURN;
      END IF;
      PERFORM pg_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0));
      -- A fresh snapshot: what the previous holder of the lock numbered is visible and skipped.
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
    GRANT EXECUTE ON FUNCTION assign_event_sequences() TO erp_app;

    -- The worker's fan-out: numbers what committed, then names those of ids still without a
    -- number (their delivery waits). The caller's own rights (the worker's session sees every
    -- tenant); the second statement sees the numbers the first gave, in the same transaction.
    CREATE FUNCTION events_awaiting_sequence(ids uuid[]) RETURNS SETOF uuid
    LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM assign_event_sequences();
      RETURN QUERY SELECT e.id FROM events e
        WHERE e.id = ANY (ids) AND e.sequence IS NULL AND e.type <> 'webhook.test';
    END
    $fn$;

    SELECT assign_event_sequences();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION events_awaiting_sequence(uuid[]);
    DROP FUNCTION assign_event_sequences();
    DROP TABLE event_sequences;
    DROP INDEX events_unsequenced, events_feed;
    CREATE INDEX events_tenant ON events (tenant_id, id);
    ALTER TABLE events DROP COLUMN recorded_at, DROP COLUMN sequence;
  `.execute(db);
}
