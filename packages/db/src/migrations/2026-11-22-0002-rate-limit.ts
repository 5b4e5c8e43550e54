import { type Kysely, sql } from 'kysely';

/**
 * Rate limiting counted in PostgreSQL so that every portal instance shares one budget.
 *
 * A bucket allows `limit` units in any window: the window is cut into 60 slots and a unit
 * counts for 61 slots, so it comes back 60 to 61 slots after it was taken and no sliding
 * window ever holds more than the limit (a fixed window would let 2× through around its
 * edge). One row per bucket, locked while it is read and written, makes the count exact
 * across instances. The table is UNLOGGED: counters are not worth a WAL flush per request
 * and a crash only forgets the last minute of usage.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE rate_limit_buckets (
      key text PRIMARY KEY,
      slots bigint[] NOT NULL DEFAULT '{}',
      counts integer[] NOT NULL DEFAULT '{}',
      idle_after timestamptz NOT NULL DEFAULT now()
    );

    CREATE FUNCTION rate_limit_take(p_keys text[], p_limits integer[], p_window_ms bigint)
    RETURNS TABLE (allowed boolean, remaining integer, reset_ms bigint)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_slot_ms bigint := greatest(p_window_ms / 60, 1);
      v_slot bigint := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint / v_slot_ms;
      v_found integer;
      v_ok boolean := true;
      v_rem integer;
      v_r integer;
      v_reset bigint := 0;
      v_lims integer[] := '{}';
      v_used integer[] := '{}';
      v_oldest bigint[] := '{}';
      r record;
    BEGIN
      -- Lock every bucket in key order (no deadlock between callers sharing buckets).
      SELECT count(*) INTO v_found FROM (
        SELECT 1 FROM rate_limit_buckets b WHERE b.key = ANY (p_keys) ORDER BY b.key FOR UPDATE
      ) locked;
      IF v_found < cardinality(p_keys) THEN
        INSERT INTO rate_limit_buckets (key)
          SELECT k FROM unnest(p_keys) AS k ORDER BY k ON CONFLICT DO NOTHING;
        PERFORM 1 FROM rate_limit_buckets b WHERE b.key = ANY (p_keys) ORDER BY b.key FOR UPDATE;
      END IF;

      FOR r IN
        SELECT k.lim, coalesce(u.used, 0) AS used, coalesce(u.oldest, v_slot) AS oldest
        FROM unnest(p_keys, p_limits) AS k (key, lim)
        JOIN rate_limit_buckets b ON b.key = k.key
        CROSS JOIN LATERAL (
          SELECT sum(s.c)::integer AS used, min(s.s) AS oldest
          FROM unnest(b.slots, b.counts) AS s (s, c)
          WHERE s.s >= v_slot - 60
        ) u
      LOOP
        v_lims := v_lims || r.lim;
        v_used := v_used || r.used;
        v_oldest := v_oldest || r.oldest;
        IF r.used >= r.lim THEN v_ok := false; END IF;
      END LOOP;

      -- remaining: the tightest bucket; reset: when that bucket next gives a unit back.
      FOR i IN 1 .. coalesce(array_length(v_lims, 1), 0) LOOP
        IF v_ok THEN
          v_r := v_lims[i] - v_used[i] - 1;
          IF v_rem IS NULL OR v_r < v_rem THEN
            v_rem := v_r;
            v_reset := (v_oldest[i] + 61) * v_slot_ms;
          ELSIF v_r = v_rem THEN
            v_reset := greatest(v_reset, (v_oldest[i] + 61) * v_slot_ms);
          END IF;
        ELSIF v_used[i] >= v_lims[i] THEN
          v_rem := 0;
          v_reset := greatest(v_reset, (v_oldest[i] + 61) * v_slot_ms);
        END IF;
      END LOOP;

      IF v_ok THEN
        UPDATE rate_limit_buckets b SET idle_after = to_timestamp((v_slot + 61) * v_slot_ms / 1000.0),
          (slots, counts) = (
          SELECT array_agg(x.s ORDER BY x.s), array_agg(x.c ORDER BY x.s)
          FROM (
            SELECT t.s, sum(t.c)::integer AS c FROM (
              SELECT s.s, s.c FROM unnest(b.slots, b.counts) AS s (s, c) WHERE s.s >= v_slot - 60
              UNION ALL SELECT v_slot, 1
            ) t GROUP BY t.s
          ) x
        )
        WHERE b.key = ANY (p_keys);
      END IF;

      RETURN QUERY SELECT v_ok, greatest(coalesce(v_rem, 0), 0), v_reset;
    END
    $fn$;

    -- A bucket whose last unit has come back holds nothing; housekeeping deletes it.
    CREATE FUNCTION rate_limit_prune() RETURNS integer LANGUAGE sql AS $fn$
      WITH gone AS (DELETE FROM rate_limit_buckets WHERE idle_after < now() RETURNING 1)
      SELECT count(*)::integer FROM gone
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION rate_limit_prune();
    DROP FUNCTION rate_limit_take(text[], integer[], bigint);
    DROP TABLE rate_limit_buckets;
  `.execute(db);
}
