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

describe('migration 2026-11-24-0018-event-feed', () => {
  it('numbers the events already recorded, per tenant in the order they were recorded, and goes down and up again', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as unknown as Kysely<any>;
    await feed.down!(db);
    const tenants = await sql<{ id: string }>`
      INSERT INTO tenants (slug, name) VALUES ('feed-a', 'A'), ('feed-b', 'B') RETURNING id
    `.execute(db);
    const [a, b] = tenants.rows.map((r) => r.id) as [string, string];
    // Ids are time-ordered: the order they were recorded in, before recorded_at existed.
    for (const [tenant, type] of [
      [a, 'sales_order.created'],
      [b, 'lead.created'],
      [a, 'webhook.test'],
      [a, 'sales_order.status_changed'],
      [b, 'lead.created'],
    ]) {
      await sql`
        INSERT INTO events (tenant_id, type, resource, resource_id, data)
        VALUES (${tenant}, ${type}, 'x', gen_random_uuid(), '{}')
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
    await feed.up(db);
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
});
