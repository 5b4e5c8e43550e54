import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const WINDOW_MS = 15 * 60_000;

async function begin(email: string, address: string, limits = [10, 100], windowMs = WINDOW_MS) {
  const { rows } = await sql<{ attempt_id: string | null; retry_after_ms: string }>`
    SELECT * FROM login_attempt_begin(${email}, ${address}, ${limits[0]}::int, ${limits[1]}::int, ${windowMs}::bigint)
  `.execute(tdb.db);
  const row = rows[0]!;
  return { id: row.attempt_id, retryAfterMs: Number(row.retry_after_ms) };
}

async function end(id: string | null, success: boolean) {
  await sql`SELECT login_attempt_end(${id}::bigint, ${success})`.execute(tdb.db);
}

async function fail(email: string, address: string, limits?: number[], windowMs?: number) {
  const attempt = await begin(email, address, limits, windowMs);
  if (attempt.id) await end(attempt.id, false);
  return attempt;
}

async function rowsOf(address: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM login_attempts WHERE address = ${address}
  `.execute(tdb.db);
  return rows[0]!.n;
}

describe('login_attempt_begin / login_attempt_end', () => {
  it('admits 10 failures of a pair, then refuses until the oldest leaves the window', async () => {
    const admitted = [];
    for (let i = 0; i < 10; i++) admitted.push(await fail('a@x.test', '192.0.2.1'));
    expect(admitted.every((a) => a.id !== null)).toBe(true);
    const refused = await begin('a@x.test', '192.0.2.1');
    expect(refused.id).toBeNull();
    expect(refused.retryAfterMs).toBeGreaterThan(WINDOW_MS - 5_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
    // A refusal writes nothing: hammering a refused pair does not push its release back.
    expect(await rowsOf('192.0.2.1')).toBe(10);
    // Another e-mail from the address, and the e-mail from another address, are untouched.
    expect((await begin('b@x.test', '192.0.2.1')).id).not.toBeNull();
    expect((await begin('a@x.test', '192.0.2.2')).id).not.toBeNull();
  });

  it('a success clears its pair, and only its pair', async () => {
    for (let i = 0; i < 9; i++) await fail('c@x.test', '192.0.2.3');
    await fail('d@x.test', '192.0.2.3');
    const ok = await begin('c@x.test', '192.0.2.3');
    await end(ok.id, true);
    expect(await rowsOf('192.0.2.3')).toBe(1); // d's failure stays
    for (let i = 0; i < 10; i++) expect((await fail('c@x.test', '192.0.2.3')).id).not.toBeNull();
    expect((await begin('c@x.test', '192.0.2.3')).id).toBeNull();
  });

  it('counts an address across e-mails', async () => {
    for (let i = 0; i < 5; i++)
      expect((await fail(`e${i}@x.test`, '192.0.2.4', [10, 5])).id).not.toBeNull();
    const refused = await begin('new@x.test', '192.0.2.4', [10, 5]);
    expect(refused.id).toBeNull();
    expect(refused.retryAfterMs).toBeGreaterThan(WINDOW_MS - 5_000);
  });

  it('holds a place for attempts in flight, and says they free it in a moment', async () => {
    const inFlight = [];
    for (let i = 0; i < 3; i++) inFlight.push(await begin('f@x.test', '192.0.2.5', [3, 100]));
    const refused = await begin('f@x.test', '192.0.2.5', [3, 100]);
    expect(refused).toEqual({ id: null, retryAfterMs: 1000 });
    await end(inFlight[0]!.id, true); // a success: the pair, in-flight places included, is clear
    expect((await begin('f@x.test', '192.0.2.5', [3, 100])).id).not.toBeNull();
  });

  it('counts an attempt left in flight over a minute (its instance died) as a failure', async () => {
    await sql`
      INSERT INTO login_attempts (email, address, started_at)
      SELECT 'g@x.test', '192.0.2.6', now() - interval '2 minutes' FROM generate_series(1, 3)
    `.execute(tdb.db);
    const refused = await begin('g@x.test', '192.0.2.6', [3, 100]);
    expect(refused.id).toBeNull();
    expect(refused.retryAfterMs).toBeGreaterThan(WINDOW_MS - 2 * 60_000 - 5_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS - 2 * 60_000);
  });

  it('slides: failures come back one by one as they leave the window', async () => {
    // A 2 s window, failures 1 s apart: the second is still in the window for about 1 s after
    // the first leaves it, room enough for a loaded machine (a 600 ms window left 280 ms, and
    // once failed under a parallel browser run).
    expect((await fail('h@x.test', '192.0.2.7', [2, 100], 2000)).id).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1000));
    expect((await fail('h@x.test', '192.0.2.7', [2, 100], 2000)).id).not.toBeNull();
    const refused = await begin('h@x.test', '192.0.2.7', [2, 100], 2000);
    expect(refused.id).toBeNull();
    expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
    await new Promise((r) => setTimeout(r, refused.retryAfterMs + 20));
    expect((await fail('h@x.test', '192.0.2.7', [2, 100], 2000)).id).not.toBeNull();
    expect((await begin('h@x.test', '192.0.2.7', [2, 100], 2000)).id).toBeNull();
  });

  it('is exact under concurrent callers: 40 at once, 10 admitted', async () => {
    const all = await Promise.all(Array.from({ length: 40 }, () => begin('i@x.test', '192.0.2.8')));
    expect(all.filter((a) => a.id !== null)).toHaveLength(10);
    expect(await rowsOf('192.0.2.8')).toBe(10);
  });

  it('removes rows that left the window as new attempts come in', async () => {
    await sql`
      INSERT INTO login_attempts (email, address, started_at, failed)
      VALUES ('old@x.test', '192.0.2.9', now() - interval '1 hour', true),
             ('old@x.test', '192.0.2.9', now() - interval '1 hour', true)
    `.execute(tdb.db);
    await fail('j@x.test', '192.0.2.10');
    await fail('j@x.test', '192.0.2.10');
    expect(await rowsOf('192.0.2.9')).toBe(0);
  });
});
