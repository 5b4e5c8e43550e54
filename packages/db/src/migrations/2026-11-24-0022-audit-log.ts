import { type Kysely, sql } from 'kysely';

/**
 * The audit log of security operations, and the health of webhook endpoints (SPEC §12).
 *
 * - `audit_log`: one row per security operation (keys, webhooks, members, invitations, single
 *   sign-on settings, sign-ins, password resets), written in the transaction of the operation
 *   it records. Tenant-scoped: `tenant_id` NULL is a platform row no tenant sees (a failed
 *   sign-in with an e-mail no account uses and no tenant named). The actor is stored as
 *   `{type, id}` without a foreign key (names are joined when read; a deleted user or key
 *   leaves its rows behind). Append-only: a trigger refuses UPDATE and TRUNCATE, and DELETE
 *   except the cascade of a deleted tenant.
 * - `audit_log_once`: a job that writes a row and is retried (a mail that failed to send)
 *   writes it once, keyed by `details.job_id`.
 * - `webhook_subscriptions`: `consecutive_failures` (deliveries that ended `failed` since the
 *   last successful attempt), `failing_since` (when the current run of failed attempts began;
 *   NULL after a success), `disabled_at`. The worker updates them in the statement that records
 *   attempts, only when they change, and disables the endpoint there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE audit_log (
      id uuid PRIMARY KEY DEFAULT erp_uuidv7(),
      tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE,
      at timestamptz NOT NULL DEFAULT now(),
      action text NOT NULL,
      actor_type text CHECK (actor_type IN ('user', 'api_key')),
      actor_id uuid,
      target_type text,
      target_id uuid,
      address text,
      details jsonb NOT NULL DEFAULT '{}',
      CHECK ((actor_type IS NULL) = (actor_id IS NULL))
    );
    CREATE INDEX audit_log_tenant ON audit_log (tenant_id, id);
    CREATE INDEX audit_log_tenant_action ON audit_log (tenant_id, action, id);
    CREATE INDEX audit_log_tenant_actor ON audit_log (tenant_id, actor_id, id) WHERE actor_id IS NOT NULL;
    CREATE UNIQUE INDEX audit_log_once
      ON audit_log (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), action, (details->>'job_id'))
      WHERE details ? 'job_id';

    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      -- The cascade of a deleted tenant: the row's tenant is already gone.
      IF TG_OP = 'DELETE' THEN
        IF OLD.tenant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id) THEN
          RETURN OLD;
        END IF;
      END IF;
      RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
    END
    $fn$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

    ALTER TABLE webhook_subscriptions
      ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
      ADD COLUMN failing_since timestamptz,
      ADD COLUMN disabled_at timestamptz;
    UPDATE webhook_subscriptions SET disabled_at = updated_at WHERE disabled_reason IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_subscriptions
      DROP COLUMN consecutive_failures, DROP COLUMN failing_since, DROP COLUMN disabled_at;
    DROP TABLE audit_log;
    DROP FUNCTION audit_log_append_only();
  `.execute(db);
}
