import { type Kysely, sql } from 'kysely';

/**
 * Several units in one call: the portal coalesces the concurrent requests of one API key
 * into one `authenticate_api_key_units` call (one key check, one lock of each bucket) instead
 * of one call each, which under load is most of the rate limiter's cost (row-lock contention).
 * `granted` is how many of the `p_units` fit in every bucket (0 to p_units); the rest are
 * refused. Same ring and rows as 0006.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION rate_limit_take_units(p_keys text[], p_limits integer[], p_window_ms bigint, p_units integer)
    RETURNS TABLE (granted integer, remaining integer, reset_ms bigint)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_slot_ms bigint := greatest(p_window_ms / 60, 1);
      v_slot bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint / v_slot_ms;
      n integer := cardinality(p_keys);
      v_keys text[];
      v_limits integer[];
      v_heads bigint[] := '{}';
      v_totals integer[] := '{}';
      v_oldests bigint[] := '{}';
      v_rings integer[] := '{}';
      v_counts integer[];
      v_head bigint;
      v_total integer;
      v_granted integer := p_units;
      v_rem integer;
      v_r integer;
      v_oldest bigint;
      v_reset bigint := 0;
      k integer;
    BEGIN
      -- Buckets are locked in key order, so callers sharing buckets never deadlock.
      IF n = 1 OR (n = 2 AND p_keys[1] < p_keys[2]) THEN
        v_keys := p_keys;
        v_limits := p_limits;
      ELSE
        SELECT array_agg(u.k ORDER BY u.k), array_agg(u.l ORDER BY u.k) INTO v_keys, v_limits
          FROM unnest(p_keys, p_limits) AS u (k, l);
      END IF;
      FOR i IN 1 .. n LOOP
        SELECT b.head, b.total, b.oldest, b.counts INTO v_head, v_total, v_oldest, v_counts
          FROM rate_limit_buckets b WHERE b.key = v_keys[i] FOR UPDATE;
        IF NOT FOUND THEN
          -- Two first callers must not both start from zero: create, then lock what exists.
          INSERT INTO rate_limit_buckets (key, head, total, counts, idle_after)
            VALUES (v_keys[i], v_slot, 0, array_fill(0, ARRAY[61]), now())
            ON CONFLICT (key) DO NOTHING;
          SELECT b.head, b.total, b.oldest, b.counts INTO v_head, v_total, v_oldest, v_counts
            FROM rate_limit_buckets b WHERE b.key = v_keys[i] FOR UPDATE;
        END IF;
        IF v_slot - v_head >= 61 THEN
          v_head := v_slot;
          v_total := 0;
          v_counts := array_fill(0, ARRAY[61]);
        ELSIF v_slot > v_head THEN
          -- The slots that left the window give their units back.
          -- Loop over offsets (< 61): slot numbers overflow plpgsql's integer loop bounds.
          FOR d IN 1 .. (v_slot - v_head)::integer LOOP
            k := ((v_head + d) % 61)::integer + 1;
            v_total := v_total - v_counts[k];
            v_counts[k] := 0;
          END LOOP;
          v_head := v_slot;
        END IF;
        -- The oldest counted slot only moves forward: amortized, this scan is a step or two.
        IF v_total = 0 THEN
          v_oldest := NULL;
        ELSIF v_oldest IS NULL OR v_oldest < v_head - 60 THEN
          v_oldest := greatest(coalesce(v_oldest, v_head - 60), v_head - 60);
          WHILE v_oldest < v_head AND v_counts[(v_oldest % 61)::integer + 1] = 0 LOOP
            v_oldest := v_oldest + 1;
          END LOOP;
        END IF;
        v_heads := v_heads || v_head;
        v_totals := v_totals || v_total;
        v_oldests := v_oldests || v_oldest;
        v_rings := v_rings || v_counts;
        v_granted := least(v_granted, greatest(v_limits[i] - v_total, 0));
      END LOOP;

      FOR i IN 1 .. n LOOP
        v_counts := v_rings[(i - 1) * 61 + 1 : i * 61];
        IF v_granted > 0 THEN
          k := (v_heads[i] % 61)::integer + 1;
          v_counts[k] := v_counts[k] + v_granted;
          v_totals[i] := v_totals[i] + v_granted;
          v_oldests[i] := coalesce(v_oldests[i], v_heads[i]);
          UPDATE rate_limit_buckets
             SET head = v_heads[i], total = v_totals[i], oldest = v_oldests[i], counts = v_counts,
                 idle_after = to_timestamp((v_heads[i] + 61) * v_slot_ms / 1000.0)
           WHERE key = v_keys[i];
        END IF;
        -- remaining: the tightest bucket; reset: when its oldest counted slot leaves the window.
        v_oldest := coalesce(v_oldests[i], v_slot);
        v_r := v_limits[i] - v_totals[i];
        IF v_granted = p_units THEN
          IF v_rem IS NULL OR v_r < v_rem THEN
            v_rem := v_r;
            v_reset := (v_oldest + 61) * v_slot_ms;
          ELSIF v_r = v_rem THEN
            v_reset := greatest(v_reset, (v_oldest + 61) * v_slot_ms);
          END IF;
        ELSIF v_r <= 0 THEN
          v_rem := 0;
          v_reset := greatest(v_reset, (v_oldest + 61) * v_slot_ms);
        END IF;
      END LOOP;

      RETURN QUERY SELECT v_granted, greatest(coalesce(v_rem, 0), 0), v_reset;
    END
    $fn$;

    CREATE FUNCTION authenticate_api_key_units(p_prefix text, p_secret_hash bytea, p_default_limit integer, p_units integer)
    RETURNS TABLE (
      key_id uuid, tenant_id uuid, tenant_slug text, tenant_modules text[], holder_id uuid,
      holder_roles text[], scopes text[], rate_limit integer,
      granted integer, remaining integer, reset_ms bigint
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

      SELECT * INTO rl FROM rate_limit_take_units(
        ARRAY['key:' || k.id::text, 'tenant:' || k.tenant_id::text],
        ARRAY[k.lim, k.tenant_lim],
        60000,
        p_units
      );

      -- last_used_at is informative: written at most once a minute, without waiting for the flush.
      IF k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' THEN
        PERFORM set_config('synchronous_commit', 'off', true);
        UPDATE api_keys SET last_used_at = now() WHERE id = k.id;
      END IF;

      RETURN QUERY SELECT k.id, k.tenant_id, k.slug, k.modules, k.holder_id, k.roles, k.scopes,
        k.lim, rl.granted, rl.remaining, rl.reset_ms;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION authenticate_api_key_units(text, bytea, integer, integer);
    DROP FUNCTION rate_limit_take_units(text[], integer[], bigint, integer);
  `.execute(db);
}
