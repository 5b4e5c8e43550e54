import { type Kysely, sql } from 'kysely';

/**
 * What every business table relies on:
 * - `erp_uuidv7()`: time-ordered ids (newest-first lists are an index scan; PostgreSQL < 18
 *   has no built-in).
 * - `erp_app`: the role business transactions switch to (`set_config('role', ...)`), so
 *   row-level security applies even when the connecting user is a superuser or the owner.
 * - `erp_tenant_id()`: the tenant of the current transaction, set with
 *   `set_config('app.tenant_id', ..., true)`; unset means no tenant and so no rows.
 * - `events`: the outbox, written in the same transaction as the change it records.
 * - `idempotency_keys`, `document_sequences` + `next_document_number()`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION erp_uuidv7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      v_bytes bytea := uuid_send(gen_random_uuid());
    BEGIN
      v_bytes := overlay(v_bytes PLACING substring(int8send(v_ms) FROM 3) FROM 1 FOR 6);
      v_bytes := set_byte(v_bytes, 6, (get_byte(v_bytes, 6) & 15) | 112);
      RETURN encode(v_bytes, 'hex')::uuid;
    END
    $fn$;

    CREATE FUNCTION erp_tenant_id() RETURNS uuid LANGUAGE sql STABLE AS $fn$
      SELECT nullif(current_setting('app.tenant_id', true), '')::uuid
    $fn$;

    DO $do$
    BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'erp_app') THEN
        CREATE ROLE erp_app NOLOGIN;
      END IF;
    END
    $do$;
    GRANT erp_app TO CURRENT_USER;
    GRANT USAGE ON SCHEMA public TO erp_app;
    GRANT EXECUTE ON FUNCTION erp_uuidv7(), erp_tenant_id() TO erp_app;

    CREATE TABLE events (
      id uuid PRIMARY KEY DEFAULT erp_uuidv7(),
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      type text NOT NULL,
      resource text NOT NULL,
      resource_id uuid NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX events_tenant ON events (tenant_id, id);
    CREATE INDEX events_resource ON events (tenant_id, resource, resource_id);

    CREATE TABLE idempotency_keys (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      key text NOT NULL,
      fingerprint bytea NOT NULL,
      response_status integer,
      response_etag text,
      response_body text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, key)
    );

    CREATE TABLE document_sequences (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      prefix text NOT NULL,
      year integer NOT NULL,
      last_value integer NOT NULL,
      PRIMARY KEY (tenant_id, prefix, year)
    );

    -- SO-2026-00001: per tenant, prefix and year; the row lock orders concurrent creations.
    CREATE FUNCTION next_document_number(p_prefix text) RETURNS text LANGUAGE sql VOLATILE AS $fn$
      INSERT INTO document_sequences AS s (tenant_id, prefix, year, last_value)
      VALUES (erp_tenant_id(), p_prefix, extract(year FROM now())::integer, 1)
      ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = s.last_value + 1
      RETURNING p_prefix || '-' || s.year || '-' || lpad(s.last_value::text, 5, '0')
    $fn$;
    GRANT EXECUTE ON FUNCTION next_document_number(text) TO erp_app;
  `.execute(db);

  for (const table of ['events', 'idempotency_keys', 'document_sequences']) {
    await sql.raw(isolateTenantSql(table)).execute(db);
  }
  await sql`
    GRANT SELECT, INSERT ON events TO erp_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys, document_sequences TO erp_app;
  `.execute(db);
}

/** Row-level security keyed on the transaction's tenant, enforced on the owner too. */
function isolateTenantSql(table: string): string {
  return `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${table}
      USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
  `;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION next_document_number(text);
    DROP TABLE document_sequences, idempotency_keys, events;
    DROP FUNCTION erp_tenant_id();
    DROP FUNCTION erp_uuidv7();
  `.execute(db);
}
