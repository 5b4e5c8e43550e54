import { type Kysely, sql } from 'kysely';

/**
 * A document number's format in one place: `erp_document_number(prefix, year, n)` gives
 * `SO-2026-00042` (immutable, inlined by the planner), and `SO-2026-123456` past 99,999 (the
 * format it replaces cut the 100,000th number of a year to `10000`, a duplicate). The engine's create statement numbers a
 * record from its tenant's counter with it (records-write.ts), and `next_document_number()`, kept
 * for statements written by hand, returns it too; before, each spelled the format out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION erp_document_number(p_prefix text, p_year integer, p_n bigint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
      SELECT p_prefix || '-' || p_year || '-' || lpad(p_n::text, greatest(5, length(p_n::text)), '0')
    $fn$;
    GRANT EXECUTE ON FUNCTION erp_document_number(text, integer, bigint) TO erp_app;

    CREATE OR REPLACE FUNCTION next_document_number(p_prefix text) RETURNS text
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_number text;
    BEGIN
      INSERT INTO document_sequences AS s (tenant_id, prefix, year, last_value)
      VALUES (erp_tenant_id(), p_prefix, extract(year FROM now())::integer, 1)
      ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = s.last_value + 1
      RETURNING erp_document_number(p_prefix, s.year, s.last_value) INTO v_number;
      RETURN v_number;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION next_document_number(p_prefix text) RETURNS text
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_number text;
    BEGIN
      INSERT INTO document_sequences AS s (tenant_id, prefix, year, last_value)
      VALUES (erp_tenant_id(), p_prefix, extract(year FROM now())::integer, 1)
      ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = s.last_value + 1
      RETURNING p_prefix || '-' || s.year || '-' || lpad(s.last_value::text, 5, '0') INTO v_number;
      RETURN v_number;
    END
    $fn$;
    DROP FUNCTION erp_document_number(text, integer, bigint);
  `.execute(db);
}
