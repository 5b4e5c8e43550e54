import { type Kysely, sql } from 'kysely';

/**
 * `erp_uuid_offset(base, n)` (SPEC §19): the `n`-th id of a write statement from the UUIDv7 the
 * engine names for it (its low 48 random bits plus `n`, modulo 2⁴⁸): immutable, so the
 * statement calls no volatile function and Citus can route it whole to the tenant's node. A
 * record's history row and events take `base + n`; distinct within the statement, and two
 * statements' bases share their first 80 bits (timestamp and 32 random bits) with odds of 2⁻³².
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION erp_uuid_offset(p_base uuid, p_n bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
      SELECT (left(p_base::text, 24)
        || lpad(to_hex((('x' || right(p_base::text, 12))::bit(48)::bigint + p_n) % 281474976710656), 12, '0'))::uuid
    $fn$;
    GRANT EXECUTE ON FUNCTION erp_uuid_offset(uuid, bigint) TO erp_app;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION erp_uuid_offset(uuid, bigint)`.execute(db);
}
