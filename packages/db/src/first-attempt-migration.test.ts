import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './migrations/index';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const inline = migrations['2026-11-28-0049-first-attempt-inline']!;

describe('migration 2026-11-28-0049-first-attempt-inline', () => {
  it('moves the deliveries claimed but never attempted back into their claim, and goes down and up again', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: a migration works on the schema of its time.
    const db = tdb.db as unknown as Kysely<any>;
    await inline.down!(db);
    const tenant = (
      await sql<{
        id: string;
      }>`INSERT INTO tenants (slug, name) VALUES ('claims-0049', 'C') RETURNING id`.execute(db)
    ).rows[0]!.id;
    const subscription = (
      await sql<{ id: string }>`
        INSERT INTO webhook_subscriptions (tenant_id, url, events, webhook_version, secret_sealed)
        VALUES (${tenant}, 'https://example.test/hook', ARRAY['lead.created'], '2026-11-23', '\\x00')
        RETURNING id`.execute(db)
    ).rows[0]!.id;
    const events = (
      await sql<{ id: string }>`
        INSERT INTO events (tenant_id, type, resource, resource_id, data)
        SELECT ${tenant}, 'lead.created', 'lead', gen_random_uuid(), '{}' FROM generate_series(1, 3)
        RETURNING id`.execute(db)
    ).rows.map((r) => r.id);
    // Before 0049: a delivery attempted once (its attempt in the log), two claimed and waiting.
    const deliveries = (
      await sql<{ id: string; event_id: string }>`
        INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type, status, attempts)
        SELECT ${tenant}, ${subscription}, e, 'lead.created', CASE WHEN n = 1 THEN 'delivered' ELSE 'pending' END,
          CASE WHEN n = 1 THEN 1 ELSE 0 END
        FROM unnest(${events}::uuid[]) WITH ORDINALITY AS x(e, n)
        RETURNING id, event_id`.execute(db)
    ).rows;
    const [done, ...waiting] = deliveries.sort(
      (x, y) => events.indexOf(x.event_id) - events.indexOf(y.event_id),
    ) as [{ id: string }, ...{ id: string; event_id: string }[]];
    await sql`
      INSERT INTO webhook_delivery_attempts (tenant_id, delivery_id, attempt, started_at, duration_ms, response_status)
      VALUES (${tenant}, ${done.id}, 1, now(), 4, 200)`.execute(db);
    await sql`
      INSERT INTO webhook_claims (process_id, delivery_ids)
      VALUES ('old-worker', ${[done.id, ...waiting.map((w) => w.id)]}::uuid[])`.execute(db);

    await inline.up(db);
    const claims = await sql<Record<string, unknown>>`
      SELECT process_id, delivery_ids, tenant_ids, event_ids, subscription_ids FROM webhook_claims`.execute(
      db,
    );
    const ids = waiting.map((w) => w.id).sort();
    const byId = new Map(waiting.map((w) => [w.id, w.event_id]));
    expect(claims.rows).toEqual([
      {
        process_id: 'old-worker',
        delivery_ids: ids,
        tenant_ids: [tenant, tenant],
        event_ids: ids.map((id) => byId.get(id)),
        subscription_ids: [subscription, subscription],
      },
    ]);
    const rows = await sql<{ id: string; first_started_at: Date | null }>`
      SELECT id, first_started_at FROM webhook_deliveries WHERE tenant_id = ${tenant}`.execute(db);
    expect(rows.rows).toEqual([{ id: done.id, first_started_at: null }]);

    // Down: the claimed deliveries written again, pending; a first attempt kept in its row
    // goes to the log.
    await sql`
      UPDATE webhook_deliveries SET first_manual = false, first_started_at = now(), first_duration_ms = 9,
        first_response_status = 200, attempts = 2
      WHERE id = ${done.id}`.execute(db);
    await sql`DELETE FROM webhook_delivery_attempts WHERE delivery_id = ${done.id}`.execute(db);
    await inline.down!(db);
    const after = await sql<{ id: string; status: string; attempts: number; log: number[] }>`
      SELECT d.id, d.status, d.attempts,
        ARRAY(SELECT a.duration_ms FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS log
      FROM webhook_deliveries d WHERE d.tenant_id = ${tenant} ORDER BY d.id`.execute(db);
    expect(after.rows).toEqual(
      [
        { id: done.id, status: 'delivered', attempts: 2, log: [9] },
        ...waiting.map((w) => ({ id: w.id, status: 'pending', attempts: 0, log: [] })),
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    await inline.up(db);
  });
});
