import { type Kysely, sql } from 'kysely';

/**
 * Events numbered per tenant (SPEC §19): one advisory lock **per tenant** instead of one for
 * every tenant's numbering, so tenants number in parallel, a tenant's feed numbers only its own
 * events, and nothing serialises the whole platform (a lock a distributed database could not
 * hold across nodes anyway). The guarantees stay: a tenant's numbers are handed out by one
 * numbering at a time, in `recorded_at` order among what has committed, each numbering
 * committed before a reader can see the tenant's `last_value`.
 *
 * - `assign_event_sequences(p_tenant, p_wait)`: the tenants with waiting events (or only
 *   `p_tenant`), each under its own lock taken in tenant order (no deadlock between two
 *   numberings), numbered by one statement each. `p_wait` false skips a tenant another session
 *   is numbering (the worker's readiness probe: that session moves the cursor itself).
 * - A first subscription opens its tenant's cursor under that tenant's lock.
 */
const LOCK = `hashtextextended('erp.event_sequences:' || v_tenant::text, 0)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    DROP FUNCTION assign_event_sequences();
    CREATE FUNCTION assign_event_sequences(p_tenant uuid DEFAULT NULL, p_wait boolean DEFAULT true)
    RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    DECLARE
      v_tenant uuid;
    BEGIN
      IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'assign_event_sequences() runs in READ COMMITTED only';
      END IF;
      FOR v_tenant IN
        SELECT DISTINCT tenant_id FROM events
         WHERE sequence IS NULL AND type <> 'webhook.test'
           AND (p_tenant IS NULL OR tenant_id = p_tenant)
         ORDER BY tenant_id
      LOOP
        IF p_wait THEN
          PERFORM pg_advisory_xact_lock(${LOCK});
        ELSIF NOT pg_try_advisory_xact_lock(${LOCK}) THEN
          CONTINUE;
        END IF;
        -- A fresh snapshot: what the lock's previous holder numbered is visible and skipped.
        WITH pending AS (
          SELECT id, row_number() OVER (ORDER BY recorded_at NULLS FIRST, id) AS n
          FROM (
            SELECT id, recorded_at FROM events
            WHERE tenant_id = v_tenant AND sequence IS NULL AND type <> 'webhook.test'
            ORDER BY recorded_at NULLS FIRST, id
            LIMIT 50000
          ) oldest
        ),
        total AS (SELECT max(n) AS n FROM pending),
        counter AS (
          INSERT INTO event_sequences AS s (tenant_id, last_value)
          SELECT v_tenant, n FROM total WHERE n IS NOT NULL
          ON CONFLICT (tenant_id) DO UPDATE SET last_value = s.last_value + excluded.last_value
          RETURNING s.last_value
        ),
        cursor AS (
          UPDATE webhook_cursors w SET numbered_through = c.last_value
          FROM counter c WHERE w.tenant_id = v_tenant
        )
        UPDATE events e SET sequence = c.last_value - t.n + p.n
        FROM pending p, total t, counter c
        WHERE e.tenant_id = v_tenant AND e.id = p.id;
      END LOOP;
    END
    $fn$;
    GRANT EXECUTE ON FUNCTION assign_event_sequences(uuid, boolean) TO erp_app;

    CREATE OR REPLACE FUNCTION webhook_cursor_open() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    DECLARE
      v_tenant uuid;
    BEGIN
      FOR v_tenant IN
        SELECT DISTINCT n.tenant_id FROM new_subscriptions n
         WHERE NOT EXISTS (SELECT 1 FROM webhook_cursors c WHERE c.tenant_id = n.tenant_id)
         ORDER BY 1
      LOOP
        -- Under the tenant's numbering lock: a numbering of it running now has committed
        -- before the counter is read, and the next one sees the cursor.
        PERFORM pg_advisory_xact_lock(${LOCK});
        INSERT INTO webhook_cursors (tenant_id, fanned_through, numbered_through)
        SELECT v_tenant, coalesce(s.last_value, 0), coalesce(s.last_value, 0)
        FROM (SELECT 1) one LEFT JOIN event_sequences s ON s.tenant_id = v_tenant
        ON CONFLICT (tenant_id) DO NOTHING;
      END LOOP;
      RETURN NULL;
    END
    $fn$;

    CREATE OR REPLACE FUNCTION webhook_outbox_ready(OUT behind boolean, OUT orphaned boolean)
    LANGUAGE plpgsql AS $fn$
    BEGIN
      -- Tenants another session is numbering now are skipped: it moves their cursors itself.
      PERFORM assign_event_sequences(NULL, false);
      behind := EXISTS (SELECT 1 FROM webhook_cursors WHERE fanned_through < numbered_through);
      orphaned := EXISTS (SELECT 1 FROM webhook_claims c
        WHERE NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.process_id = c.process_id));
    END
    $fn$;
  `)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION webhook_outbox_ready(OUT behind boolean, OUT orphaned boolean)
    LANGUAGE plpgsql AS $fn$
    BEGIN
      IF EXISTS (SELECT 1 FROM events WHERE sequence IS NULL AND type <> 'webhook.test')
         AND pg_try_advisory_xact_lock(hashtextextended('erp.assign_event_sequences', 0)) THEN
        PERFORM assign_event_sequences();
      END IF;
      behind := EXISTS (SELECT 1 FROM webhook_cursors WHERE fanned_through < numbered_through);
      orphaned := EXISTS (SELECT 1 FROM webhook_claims c
        WHERE NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.process_id = c.process_id));
    END
    $fn$;

    CREATE OR REPLACE FUNCTION webhook_cursor_open() RETURNS trigger
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

    DROP FUNCTION assign_event_sequences(uuid, boolean);
    CREATE FUNCTION assign_event_sequences() RETURNS void
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
    GRANT EXECUTE ON FUNCTION assign_event_sequences() TO erp_app;
  `.execute(db);
}
