import { type Kysely, sql } from 'kysely';

/**
 * `erp_document_number` inlined, as 0047 meant it (issue 26: what a posting costs). PostgreSQL
 * expands a SQL function into the statement only if nothing in its body is less immutable than
 * the function says (0047's `text || integer` is `anytextcat`, STABLE) and, for a STRICT one,
 * only if it can prove the body null for a null argument (`greatest(5, …)` is not strict). So
 * every numbered insert (every posting's entry) called it as a function, planning its body
 * again at each call: about 70 µs of PostgreSQL an insert, measured with `track_functions`.
 * The year is cast to text and the function is not STRICT: same answers (a null argument still
 * gives null: `||` and `lpad` are strict), body expanded in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION erp_document_number(p_prefix text, p_year integer, p_n bigint) RETURNS text
    LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE AS $fn$
      SELECT p_prefix || '-' || p_year::text || '-' || lpad(p_n::text, greatest(5, length(p_n::text)), '0')
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION erp_document_number(p_prefix text, p_year integer, p_n bigint) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
      SELECT p_prefix || '-' || p_year || '-' || lpad(p_n::text, greatest(5, length(p_n::text)), '0')
    $fn$;
  `.execute(db);
}
