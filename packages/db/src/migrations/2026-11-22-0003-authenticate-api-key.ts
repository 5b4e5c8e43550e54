import { type Kysely, sql } from 'kysely';

/**
 * Everything an API-key request needs from the database, in one round trip: the key (by
 * prefix and keyed hash, live and unexpired), its tenant, its holder's current roles, and
 * one unit of both the key's and the tenant's rate-limit budgets. Reading the key fresh
 * on every request is what makes revocation and role changes effective at once on every
 * instance; doing it inside the call the rate limit needs anyway makes that free.
 * A key whose holder left the tenant matches nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION authenticate_api_key(p_prefix text, p_secret_hash bytea, p_default_limit integer)
    RETURNS TABLE (
      key_id uuid, tenant_id uuid, tenant_slug text, tenant_modules text[], holder_id uuid,
      holder_roles text[], scopes text[], rate_limit integer,
      allowed boolean, remaining integer, reset_ms bigint
    )
    LANGUAGE plpgsql AS $fn$
    DECLARE
      k record;
      rl record;
    BEGIN
      SELECT a.id, a.tenant_id, t.slug, t.modules, a.holder_id, m.roles, a.scopes,
             coalesce(a.rate_limit_per_minute, p_default_limit) AS lim,
             t.rate_limit_per_minute AS tenant_lim, a.last_used_at
        INTO k
        FROM api_keys a
        JOIN tenants t ON t.id = a.tenant_id
        JOIN memberships m ON m.tenant_id = a.tenant_id AND m.user_id = a.holder_id
       WHERE a.prefix = p_prefix AND a.secret_hash = p_secret_hash
         AND a.revoked_at IS NULL AND a.expires_at > now();
      IF NOT FOUND THEN
        RETURN;
      END IF;

      SELECT * INTO rl FROM rate_limit_take(
        ARRAY['key:' || k.id::text, 'tenant:' || k.tenant_id::text],
        ARRAY[k.lim, k.tenant_lim],
        60000
      );

      -- last_used_at is informative: written at most once a minute, without waiting for the flush.
      IF k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' THEN
        PERFORM set_config('synchronous_commit', 'off', true);
        UPDATE api_keys SET last_used_at = now() WHERE id = k.id;
      END IF;

      RETURN QUERY SELECT k.id, k.tenant_id, k.slug, k.modules, k.holder_id, k.roles, k.scopes,
        k.lim, rl.allowed, rl.remaining, rl.reset_ms;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION authenticate_api_key(text, bytea, integer)`.execute(db);
}
