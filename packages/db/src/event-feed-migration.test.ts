import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const feed = migrations['2026-11-24-0018-event-feed']!;
// The numbering per tenant (0042) replaces the function 0018 made: undone first, redone last.
const perTenant = migrations['2026-11-28-0042-per-tenant-event-numbering']!;
// And the cursor's row-level triggers (0043) replace 0042's cursor function: undone before it.
const rowLevel = migrations['2026-11-28-0043-row-level-cursor-triggers']!;

describe('migration 2026-11-24-0018-event-feed', () => {
  it('numbers the events already recorded, per tenant in the order they were recorded, and goes down and up again', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as unknown as Kysely<any>;
    await rowLevel.down!(db);
    await perTenant.down!(db);
    await feed.down!(db);
    try {
      const tenants = await sql<{ id: string }>`
      INSERT INTO tenants (slug, name) VALUES ('feed-a', 'A'), ('feed-b', 'B') RETURNING id
    `.execute(db);
      const [a, b] = tenants.rows.map((r) => r.id) as [string, string];
      // Ids are time-ordered: the order they were recorded in, before recorded_at existed. Given
      // here: two generated in the same millisecond would be in no particular order.
      for (const [i, [tenant, type]] of [
        [a, 'sales_order.created'],
        [b, 'lead.created'],
        [a, 'webhook.test'],
        [a, 'sales_order.status_changed'],
        [b, 'lead.created'],
      ].entries()) {
        await sql`
        INSERT INTO events (id, tenant_id, type, resource, resource_id, data)
        VALUES (${`01900000-0000-7000-8000-00000000000${i}`}, ${tenant}, ${type}, 'x', gen_random_uuid(), '{}')
      `.execute(db);
      }
      await feed.up(db);

      const numbered = await sql<{ tenant_id: string; type: string; sequence: string | null }>`
      SELECT tenant_id, type, sequence FROM events WHERE tenant_id IN (${a}, ${b}) ORDER BY id
    `.execute(db);
      expect(numbered.rows).toEqual([
        { tenant_id: a, type: 'sales_order.created', sequence: '1' },
        { tenant_id: b, type: 'lead.created', sequence: '1' },
        { tenant_id: a, type: 'webhook.test', sequence: null },
        { tenant_id: a, type: 'sales_order.status_changed', sequence: '2' },
        { tenant_id: b, type: 'lead.created', sequence: '2' },
      ]);
      const counters = await sql<{ tenant_id: string; last_value: string }>`
      SELECT tenant_id, last_value FROM event_sequences WHERE tenant_id IN (${a}, ${b})
    `.execute(db);
      expect(new Map(counters.rows.map((r) => [r.tenant_id, r.last_value]))).toEqual(
        new Map([
          [a, '2'],
          [b, '2'],
        ]),
      );

      await feed.down!(db);
      const columns = await sql`
      SELECT column_name FROM information_schema.columns
      WHERE table_name = 'events' AND column_name IN ('sequence', 'recorded_at')
    `.execute(db);
      expect(columns.rows).toEqual([]);
    } finally {
      // Back to the latest schema whatever failed, so the tests after this one run on it.
      const columns = await sql`
        SELECT 1 FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'sequence'
      `.execute(db);
      if (!columns.rows.length) await feed.up(db);
      await perTenant.up(db);
      await rowLevel.up(db);
    }
  });

  it('refuses to number outside READ COMMITTED, where a snapshot could miss numbers given meanwhile', async () => {
    const client = await tdb.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await expect(client.query('SELECT assign_event_sequences()')).rejects.toThrow(
        /READ COMMITTED/,
      );
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('numbers each tenant under its own lock: one tenant’s numbering never waits on another’s (migration 0042)', async () => {
    const db = tdb.db;
    const tenants = await sql<{ id: string }>`
      INSERT INTO tenants (slug, name) VALUES ('lock-a', 'A'), ('lock-b', 'B') RETURNING id
    `.execute(db);
    const [a, b] = tenants.rows.map((r) => r.id) as [string, string];
    for (const tenant of [a, b, a, b])
      await sql`
        INSERT INTO events (tenant_id, type, resource, resource_id, data)
        VALUES (${tenant}, 'lead.created', 'x', gen_random_uuid(), '{}')
      `.execute(db);
    const holder = await tdb.pool.connect();
    const other = await tdb.pool.connect();
    const sequences = async (tenant: string) =>
      (
        await tdb.pool.query<{ sequence: string | null }>(
          'SELECT sequence FROM events WHERE tenant_id = $1 ORDER BY recorded_at',
          [tenant],
        )
      ).rows.map((r) => r.sequence);
    try {
      // A numbering of tenant A in progress (its lock held, not committed).
      await holder.query('BEGIN');
      await holder.query(
        "SELECT pg_advisory_xact_lock(hashtextextended('erp.event_sequences:' || $1::text, 0))",
        [a],
      );
      // B's numbering does not wait for it (a wait would fail on the statement timeout).
      await other.query("SET statement_timeout = '3s'");
      await other.query('SELECT assign_event_sequences($1::uuid)', [b]);
      expect(await sequences(b)).toEqual(['1', '2']);
      // The worker's probe skips A, whose numbering is under way, rather than queue behind it.
      await other.query('SELECT assign_event_sequences(NULL, false)');
      expect(await sequences(a)).toEqual([null, null]);
      await holder.query('COMMIT');
      await other.query('SELECT assign_event_sequences()');
      expect(await sequences(a)).toEqual(['1', '2']);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      other.release();
    }
  });
});
