import { type Kysely, sql } from 'kysely';

/**
 * The webhook cursor's triggers row by row (SPEC §19): a subscription's first creation opens its
 * tenant's cursor, its tenant's last deletion closes it, each statement naming the row's tenant.
 * Statement-level triggers read a transition table that may hold any tenant's rows, which a
 * table distributed by tenant cannot route to one node (docs/scale-out.md, `confinement.ts`).
 * Same effects: the cursor opened under the tenant's numbering lock at the counter's value.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER webhook_subscriptions_cursor_open ON webhook_subscriptions;
    DROP TRIGGER webhook_subscriptions_cursor_close ON webhook_subscriptions;

    CREATE OR REPLACE FUNCTION webhook_cursor_open() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, public
    SET app.worker = 'on'
    AS $fn$
    BEGIN
      IF EXISTS (SELECT 1 FROM webhook_cursors c WHERE c.tenant_id = NEW.tenant_id) THEN
        RETURN NULL;
      END IF;
      -- Under the tenant's numbering lock: a numbering of it running now has committed before
      -- the counter is read, and the next one sees the cursor.
      PERFORM pg_advisory_xact_lock(hashtextextended('erp.event_sequences:' || NEW.tenant_id::text, 0));
      INSERT INTO webhook_cursors (tenant_id, fanned_through, numbered_through)
      SELECT NEW.tenant_id, coalesce(s.last_value, 0), coalesce(s.last_value, 0)
      FROM (SELECT 1) one LEFT JOIN event_sequences s ON s.tenant_id = NEW.tenant_id
      ON CONFLICT (tenant_id) DO NOTHING;
      RETURN NULL;
    END
    $fn$;

    CREATE OR REPLACE FUNCTION webhook_cursor_close() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      DELETE FROM webhook_cursors c
      WHERE c.tenant_id = OLD.tenant_id
        AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.tenant_id = OLD.tenant_id);
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER webhook_subscriptions_cursor_open AFTER INSERT ON webhook_subscriptions
      FOR EACH ROW EXECUTE FUNCTION webhook_cursor_open();
    CREATE TRIGGER webhook_subscriptions_cursor_close AFTER DELETE ON webhook_subscriptions
      FOR EACH ROW EXECUTE FUNCTION webhook_cursor_close();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TRIGGER webhook_subscriptions_cursor_open ON webhook_subscriptions;
    DROP TRIGGER webhook_subscriptions_cursor_close ON webhook_subscriptions;

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
        PERFORM pg_advisory_xact_lock(hashtextextended('erp.event_sequences:' || v_tenant::text, 0));
        INSERT INTO webhook_cursors (tenant_id, fanned_through, numbered_through)
        SELECT v_tenant, coalesce(s.last_value, 0), coalesce(s.last_value, 0)
        FROM (SELECT 1) one LEFT JOIN event_sequences s ON s.tenant_id = v_tenant
        ON CONFLICT (tenant_id) DO NOTHING;
      END LOOP;
      RETURN NULL;
    END
    $fn$;

    CREATE OR REPLACE FUNCTION webhook_cursor_close() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
    BEGIN
      DELETE FROM webhook_cursors c
      WHERE c.tenant_id IN (SELECT tenant_id FROM old_subscriptions)
        AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.tenant_id = c.tenant_id);
      RETURN NULL;
    END
    $fn$;

    CREATE TRIGGER webhook_subscriptions_cursor_open AFTER INSERT ON webhook_subscriptions
      REFERENCING NEW TABLE AS new_subscriptions
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_cursor_open();
    CREATE TRIGGER webhook_subscriptions_cursor_close AFTER DELETE ON webhook_subscriptions
      REFERENCING OLD TABLE AS old_subscriptions
      FOR EACH STATEMENT EXECUTE FUNCTION webhook_cursor_close();
  `.execute(db);
}
