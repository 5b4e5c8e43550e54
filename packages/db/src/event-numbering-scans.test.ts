import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const WAITING = 20_000;

/** The scans of `events` the worker's poll made, read in its own transaction. */
async function pollScans(): Promise<{ seq_scan: string; idx_scan: string }> {
  return tdb.db.transaction().execute(async (trx) => {
    await sql`SELECT * FROM webhook_outbox_ready()`.execute(trx);
    const { rows } = await sql<{ seq_scan: string; idx_scan: string }>`
      SELECT seq_scan::text, idx_scan::text FROM pg_stat_xact_user_tables WHERE relname = 'events'
    `.execute(trx);
    return rows[0]!;
  });
}

describe('the numbering of events (migrations 0046, 0048)', () => {
  it('finds the waiting events by the index of waiting events, never by reading the whole table, whatever the statistics say', async () => {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO tenants (slug, name) VALUES ('scans', 'Scans') RETURNING id
    `.execute(tdb.db);
    const tenant = rows[0]!.id;
    await sql`
      INSERT INTO events (tenant_id, type, resource, resource_id, data)
      SELECT ${tenant}, 'sales_order.created', 'sales_order', gen_random_uuid(), '{}'
      FROM generate_series(1, ${WAITING})
    `.execute(tdb.db);
    // Statistics taken while all of them wait (a stopped worker, a burst of writes): a plan
    // reading the whole table then looks cheapest for every later poll.
    await sql`ANALYZE events`.execute(tdb.db);
    await sql`SELECT assign_event_sequences()`.execute(tdb.db);
    const numbered = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM events WHERE tenant_id = ${tenant} AND sequence IS NOT NULL
    `.execute(tdb.db);
    expect(numbered.rows[0]!.n).toBe(String(WAITING));

    expect((await pollScans()).seq_scan).toBe('0');

    // The control: without 0048 (bitmap scans still off) the same poll reads the whole table.
    const noSeqscan = migrations['2026-11-28-0048-numbering-no-seqscan']!;
    await noSeqscan.down!(tdb.db);
    try {
      expect((await pollScans()).seq_scan).not.toBe('0');
    } finally {
      await noSeqscan.up(tdb.db);
    }
  }, 120_000);
});
