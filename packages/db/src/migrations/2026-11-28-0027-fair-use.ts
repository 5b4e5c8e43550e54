import { type Kysely, sql } from 'kysely';

/**
 * Sessions under the one rate limiter, and an access token checked against its session
 * (SPEC §13, §16), in the one call a session request makes:
 *
 * - `authenticate_session_units(user, family, tenant, tenant_is_uuid, limit, units)`: whether the
 *   session (the refresh-token family named by the access token's `sid`) still lives, that is
 *   one of its tokens is neither revoked (logout, reuse, a new password) nor expired; the
 *   membership of the tenant named (slug or id) with the tenant's SSO policy; and `units` of
 *   the rate limiter, from the buckets `session:<user>:<tenant>` (`p_limit`) and
 *   `tenant:<tenant>` (the tenant's ceiling, the bucket its API keys take from too), or from
 *   `session:<user>` alone when no tenant is named or the user is not a member of it (every
 *   session request counts). `alive` false: nothing else is read or taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION authenticate_session_units(
      p_user_id uuid, p_family_id uuid, p_tenant text, p_tenant_is_uuid boolean,
      p_limit integer, p_units integer)
    RETURNS TABLE (
      alive boolean, tenant_id uuid, tenant_slug text, tenant_modules text[], roles text[],
      sso_enforced boolean, sso_issuer text, sso_legacy_authorize_url text,
      rate_limit integer, granted integer, remaining integer, reset_ms bigint
    )
    LANGUAGE plpgsql AS $fn$
    DECLARE
      m record;
      v_member boolean := false;
      rl record;
    BEGIN
      PERFORM 1 FROM refresh_tokens r
        WHERE r.family_id = p_family_id AND r.user_id = p_user_id
          AND r.revoked_at IS NULL AND r.expires_at > now()
        LIMIT 1;
      IF NOT FOUND THEN
        RETURN QUERY SELECT false, NULL::uuid, NULL::text, NULL::text[], NULL::text[],
          NULL::boolean, NULL::text, NULL::text, p_limit, 0, 0, 0::bigint;
        RETURN;
      END IF;

      IF p_tenant IS NOT NULL THEN
        -- Two statements, not one with an OR: each uses its tenant index.
        IF p_tenant_is_uuid THEN
          SELECT t.id, t.slug, t.modules, mb.roles, t.rate_limit_per_minute AS tenant_lim,
                 s.enforced, s.issuer, s.legacy_authorize_url
            INTO m
            FROM tenants t
            JOIN memberships mb ON mb.tenant_id = t.id AND mb.user_id = p_user_id
            LEFT JOIN sso_settings s ON s.tenant_id = t.id
           WHERE t.id = p_tenant::uuid;
          v_member := FOUND;
        ELSE
          SELECT t.id, t.slug, t.modules, mb.roles, t.rate_limit_per_minute AS tenant_lim,
                 s.enforced, s.issuer, s.legacy_authorize_url
            INTO m
            FROM tenants t
            JOIN memberships mb ON mb.tenant_id = t.id AND mb.user_id = p_user_id
            LEFT JOIN sso_settings s ON s.tenant_id = t.id
           WHERE t.slug = p_tenant;
          v_member := FOUND;
        END IF;
      END IF;

      IF NOT v_member THEN
        SELECT * INTO rl FROM rate_limit_take_units(
          ARRAY['session:' || p_user_id::text], ARRAY[p_limit], 60000, p_units);
        RETURN QUERY SELECT true, NULL::uuid, NULL::text, NULL::text[], NULL::text[],
          NULL::boolean, NULL::text, NULL::text, p_limit, rl.granted, rl.remaining, rl.reset_ms;
        RETURN;
      END IF;

      SELECT * INTO rl FROM rate_limit_take_units(
        ARRAY['session:' || p_user_id::text || ':' || m.id::text, 'tenant:' || m.id::text],
        ARRAY[p_limit, m.tenant_lim], 60000, p_units);
      RETURN QUERY SELECT true, m.id, m.slug, m.modules, m.roles, m.enforced, m.issuer,
        m.legacy_authorize_url, p_limit, rl.granted, rl.remaining, rl.reset_ms;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION authenticate_session_units(uuid, uuid, text, boolean, integer, integer);
  `.execute(db);
}
