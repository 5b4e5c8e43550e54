import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys belong to the principal that sent them (SPEC §16): `principal` joins the
 * primary key, so a stored answer is found only by the same user session or the same API key,
 * and another principal's identical key is a key of its own (namespaced, as Stripe's are per
 * account). Rows written before have principal '' and match nobody: they age out.
 *
 * The worker purges rows older than 24 h (`idempotency_purge` cron): an index on `created_at`
 * finds them, and its sessions (`app.worker = on`) pass the tenant policy, as for the events'
 * retention. Nothing else reads across tenants.
 *
 * The job queue's tables (graphile-worker's `_private_*`) enable row-level security with no
 * policy: only their owner or a superuser may use them. The deploy's apps log in as roles that
 * are neither (deploy/postgres/roles.sql) and must enqueue (portal, landing) and run (worker)
 * jobs: a permissive policy lets whoever holds the table privileges through. Privileges stay
 * the gate: erp_app and PUBLIC hold none on them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE idempotency_keys ADD COLUMN principal text NOT NULL DEFAULT '';
    ALTER TABLE idempotency_keys ALTER COLUMN principal DROP DEFAULT;
    ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
    ALTER TABLE idempotency_keys ADD PRIMARY KEY (tenant_id, principal, key);
    CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
    ALTER POLICY tenant_isolation ON idempotency_keys
      USING (tenant_id = erp_tenant_id() OR erp_worker_session())
      WITH CHECK (tenant_id = erp_tenant_id());
  `.execute(db);
  await sql`
    DO $do$
    DECLARE
      t regclass;
    BEGIN
      FOR t IN
        SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'graphile_worker' AND c.relkind = 'r' AND c.relrowsecurity
      LOOP
        EXECUTE format('CREATE POLICY erp_granted ON %s USING (true) WITH CHECK (true)', t);
      END LOOP;
    END
    $do$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DO $do$
    DECLARE
      t regclass;
    BEGIN
      FOR t IN
        SELECT p.polrelid::regclass FROM pg_policy p WHERE p.polname = 'erp_granted'
      LOOP
        EXECUTE format('DROP POLICY erp_granted ON %s', t);
      END LOOP;
    END
    $do$;
  `.execute(db);
  await sql`
    ALTER POLICY tenant_isolation ON idempotency_keys
      USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
    DROP INDEX idempotency_keys_created_at;
    DELETE FROM idempotency_keys WHERE principal <> '';
    ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
    ALTER TABLE idempotency_keys ADD PRIMARY KEY (tenant_id, key);
    ALTER TABLE idempotency_keys DROP COLUMN principal;
  `.execute(db);
}
