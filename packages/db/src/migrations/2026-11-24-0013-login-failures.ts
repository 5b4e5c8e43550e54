import { type Kysely, sql } from 'kysely';

/**
 * Login throttling counts failed password checks only, per (e-mail, client address) pair and
 * per client address, never per e-mail alone (SPEC §4): a stranger's guesses cannot lock an
 * account out, and successes never count. It replaces `rate_limit_take` for logins, which
 * counted every attempt per e-mail.
 *
 * One row per attempt that got past the throttle. `login_attempt_begin` reserves the row
 * *before* the password is verified, under a lock on the client address, so N concurrent
 * guesses cannot all pass a check that none of them has counted yet (a peek, then a count on
 * failure, would let a burst of parallel guesses through unthrottled). A refused attempt
 * writes nothing and costs no argon2 verification. `login_attempt_end` settles the row:
 * failed, or on success deletes every row of the pair (the reservation itself included).
 * A row still in flight after a minute belongs to an instance that died mid-attempt: it
 * counts as a failure until it leaves the window. The window is exact (timestamps, not
 * slots); rows of an address are at most its limits plus what is in flight. UNLOGGED like
 * the rate-limit buckets: a PostgreSQL crash forgets at most 15 minutes of failures.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE login_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      email text NOT NULL,
      address text NOT NULL,
      started_at timestamptz NOT NULL,
      failed boolean NOT NULL DEFAULT false
    );
    CREATE INDEX login_attempts_address ON login_attempts (address, started_at);
    CREATE INDEX login_attempts_started_at ON login_attempts (started_at);

    -- attempt_id: the reservation to settle, or NULL when refused; retry_after_ms: when refused,
    -- how long until an attempt can pass (1 s when only attempts in flight fill the budget,
    -- since they settle in moments).
    CREATE FUNCTION login_attempt_begin(
      p_email text, p_address text, p_pair_limit integer, p_address_limit integer, p_window_ms bigint
    )
    RETURNS TABLE (attempt_id bigint, retry_after_ms bigint)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_window interval := p_window_ms * interval '1 millisecond';
      v_now timestamptz;
      v_since timestamptz;
      v_stale timestamptz;
      v_address_all integer;
      v_address_failed integer;
      v_pair_all integer;
      v_pair_failed integer;
      v_oldest timestamptz;
      v_retry bigint := 0;
      v_id bigint;
    BEGIN
      -- Every attempt of an address (so of each of its pairs) takes this lock until commit, on
      -- every instance: the count below and the insert are one step. A class of its own (the
      -- two-int form) keeps these keys apart from any other advisory lock.
      PERFORM pg_advisory_xact_lock(1819244403, hashtext(p_address));
      v_now := clock_timestamp();
      v_since := v_now - v_window;
      v_stale := v_now - interval '1 minute';

      SELECT count(*)::integer,
             count(*) FILTER (WHERE a.failed OR a.started_at < v_stale)::integer,
             count(*) FILTER (WHERE a.email = p_email)::integer,
             count(*) FILTER (WHERE a.email = p_email AND (a.failed OR a.started_at < v_stale))::integer
        INTO v_address_all, v_address_failed, v_pair_all, v_pair_failed
        FROM login_attempts a
       WHERE a.address = p_address AND a.started_at > v_since;

      IF v_pair_all < p_pair_limit AND v_address_all < p_address_limit THEN
        INSERT INTO login_attempts (email, address, started_at)
          VALUES (p_email, p_address, v_now) RETURNING id INTO v_id;
        -- Housekeeping as we go: each admitted attempt removes up to two rows that left the
        -- window, so the table holds about one window of attempts without a scheduled job.
        DELETE FROM login_attempts WHERE id IN (
          SELECT o.id FROM login_attempts o WHERE o.started_at <= v_since
           ORDER BY o.started_at LIMIT 2 FOR UPDATE SKIP LOCKED
        );
        RETURN QUERY SELECT v_id, 0::bigint;
        RETURN;
      END IF;

      -- Refused. A budget filled by failures frees a place when enough of its oldest failures
      -- leave the window; one filled only thanks to attempts in flight frees it in moments.
      IF v_pair_all >= p_pair_limit THEN
        IF v_pair_failed >= p_pair_limit THEN
          SELECT a.started_at INTO v_oldest FROM login_attempts a
           WHERE a.address = p_address AND a.email = p_email AND a.started_at > v_since
             AND (a.failed OR a.started_at < v_stale)
           ORDER BY a.started_at OFFSET v_pair_failed - p_pair_limit LIMIT 1;
          v_retry := greatest(v_retry, ceil(extract(epoch FROM v_oldest + v_window - v_now) * 1000)::bigint);
        ELSE
          v_retry := greatest(v_retry, 1000);
        END IF;
      END IF;
      IF v_address_all >= p_address_limit THEN
        IF v_address_failed >= p_address_limit THEN
          SELECT a.started_at INTO v_oldest FROM login_attempts a
           WHERE a.address = p_address AND a.started_at > v_since
             AND (a.failed OR a.started_at < v_stale)
           ORDER BY a.started_at OFFSET v_address_failed - p_address_limit LIMIT 1;
          v_retry := greatest(v_retry, ceil(extract(epoch FROM v_oldest + v_window - v_now) * 1000)::bigint);
        ELSE
          v_retry := greatest(v_retry, 1000);
        END IF;
      END IF;
      RETURN QUERY SELECT NULL::bigint, greatest(v_retry, 1);
    END
    $fn$;

    -- A failure keeps its reservation as a counted failure; a success clears the whole pair,
    -- its own reservation included, so successes never count.
    CREATE FUNCTION login_attempt_end(p_attempt_id bigint, p_success boolean)
    RETURNS void
    LANGUAGE plpgsql AS $fn$
    BEGIN
      IF p_success THEN
        DELETE FROM login_attempts a USING login_attempts mine
         WHERE mine.id = p_attempt_id AND a.address = mine.address AND a.email = mine.email;
      ELSE
        UPDATE login_attempts SET failed = true WHERE id = p_attempt_id;
      END IF;
    END
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP FUNCTION login_attempt_end(bigint, boolean);
    DROP FUNCTION login_attempt_begin(text, text, integer, integer, bigint);
    DROP TABLE login_attempts;
  `.execute(db);
}
