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
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
