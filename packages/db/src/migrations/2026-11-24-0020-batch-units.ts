import { type Kysely, sql } from 'kysely';

/**
 * Several units at once, all or none: a batch of N operations counts as N requests (SPEC §12),
 * and one refused must not spend what room there was (`rate_limit_take_units` grants what
 * fits, which suits coalesced requests, each of which stands alone, but not a batch).
 *
 * - `rate_limit_take_all`: `rate_limit_take_units` inside a subtransaction, undone unless every
 *   unit was granted. A refusal says when enough units will have come back (`reset_ms`, Unix ms,
 *   from the slots that leave the window first), or NULL when a bucket's limit is below the
 *   units asked (no wait can make room). `remaining` is then the room there is.
 * - `api_key_take_units`: the same for an API key's two buckets (key, tenant) with their limits,
 *   the pair `authenticate_api_key_units` takes one unit from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION rate_limit_take_all(p_keys text[], p_limits integer[], p_window_ms bigint, p_units integer)
    RETURNS TABLE (granted boolean, remaining integer, reset_ms bigint)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_slot_ms bigint := greatest(p_window_ms / 60, 1);
      v_now bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint / v_slot_ms;
      v_taken record;
      v_room integer;
      v_reset bigint := 0;
      b record;
      v_live integer;
      v_need integer;
      v_slot bigint;
    BEGIN
      BEGIN
        SELECT u.granted, u.remaining, u.reset_ms INTO v_taken
          FROM rate_limit_take_units(p_keys, p_limits, p_window_ms, p_units) AS u;
        IF v_taken.granted = p_units THEN
          RETURN QUERY SELECT true, v_taken.remaining, v_taken.reset_ms;
          RETURN;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'not every unit fits';
      EXCEPTION WHEN raise_exception THEN
        -- Local variables survive the rollback of the block: the partial grant is undone.
        v_room := v_taken.granted;
      END;
      FOR b IN
        SELECT k.key, k.lim, r.head, r.counts
          FROM unnest(p_keys, p_limits) AS k (key, lim)
          LEFT JOIN rate_limit_buckets r ON r.key = k.key
      LOOP
        IF p_units > b.lim THEN
          RETURN QUERY SELECT false, v_room, NULL::bigint;
          RETURN;
        END IF;
        CONTINUE WHEN b.head IS NULL;
        -- Units of slot s come back at (s + 61) slots; slots older than the window already have.
        -- Offsets, not slot numbers, in loops: those overflow plpgsql's integer loop bounds.
        v_live := 0;
        FOR d IN 0 .. 60 LOOP
          v_slot := b.head - 60 + d;
          IF v_slot + 61 > v_now THEN
            v_live := v_live + b.counts[(v_slot % 61)::integer + 1];
          END IF;
        END LOOP;
        v_need := p_units - (b.lim - v_live);
        FOR d IN 0 .. 60 LOOP
          EXIT WHEN v_need <= 0;
          v_slot := b.head - 60 + d;
          IF v_slot + 61 > v_now THEN
            v_need := v_need - b.counts[(v_slot % 61)::integer + 1];
            IF v_need <= 0 THEN
              v_reset := greatest(v_reset, (v_slot + 61) * v_slot_ms);
            END IF;
          END IF;
        END LOOP;
      END LOOP;
      RETURN QUERY SELECT false, v_room, greatest(v_reset, (v_now + 1) * v_slot_ms);
    END
    $fn$;

    CREATE FUNCTION api_key_take_units(p_key_id uuid, p_default_limit integer, p_units integer)
    RETURNS TABLE (granted boolean, rate_limit integer, remaining integer, reset_ms bigint)
    LANGUAGE sql AS $fn$
      SELECT u.granted, l.lim, u.remaining, u.reset_ms
        FROM (SELECT coalesce(a.rate_limit_per_minute, p_default_limit) AS lim,
                     t.rate_limit_per_minute AS tenant_lim, a.id, a.tenant_id
                FROM api_keys a JOIN tenants t ON t.id = a.tenant_id
               WHERE a.id = p_key_id) l
        CROSS JOIN LATERAL rate_limit_take_all(
          ARRAY['key:' || l.id::text, 'tenant:' || l.tenant_id::text],
          ARRAY[l.lim, l.tenant_lim], 60000, p_units) AS u
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION api_key_take_units(uuid, integer, integer);
    DROP FUNCTION rate_limit_take_all(text[], integer[], bigint, integer);
  `.execute(db);
}
