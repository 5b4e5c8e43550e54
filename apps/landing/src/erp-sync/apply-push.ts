import type { ErpSyncPush, ErpSyncResult } from '@erp/contract';
import type { Database } from '@erp/db';
import { type Kysely, sql, type Transaction } from '@erp/db';
import type { LandingDeps } from '../deps';
import { snapshotDigest } from './canonical';

/**
 * Stores a pushed snapshot, in one transaction holding `landing.sync_state`'s row lock (two
 * concurrent pushes apply one after the other): older than the stored one → `stale`, nothing
 * changes; same content → `unchanged`, only last_sync_at and pushes_received move; else the
 * tenants, plans and metadata are replaced (upsert, delete what the push no longer has).
 */
export async function applySyncPush(
  deps: Pick<LandingDeps, 'db' | 'now'>,
  push: ErpSyncPush,
): Promise<ErpSyncResult> {
  const digest = snapshotDigest(push);
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const state = await trx
      .selectFrom('landing.sync_state')
      .select(['generated_at', 'payload_sha256'])
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (state.generated_at && new Date(push.generated_at) < state.generated_at) {
      return { status: 'stale', counts: await storedCounts(trx) };
    }
    const counts = {
      tenants: push.tenants.length,
      plans: push.plans.length,
      metadata: Object.keys(push.metadata).length,
    };
    if (state.payload_sha256 === digest) {
      await sql`UPDATE landing.sync_state
        SET last_sync_at = ${now}, pushes_received = pushes_received + 1`.execute(trx);
      return { status: 'unchanged', counts };
    }
    await replaceSnapshot(trx, push);
    await sql`UPDATE landing.sync_state
      SET last_sync_at = ${now}, generated_at = ${push.generated_at}::timestamptz,
          payload_sha256 = ${digest}, pushes_received = pushes_received + 1`.execute(trx);
    return { status: 'applied', counts };
  });
}

async function replaceSnapshot(trx: Transaction<Database>, push: ErpSyncPush): Promise<void> {
  const tenants = JSON.stringify(push.tenants);
  // A tenant whose slug changed is deleted and inserted again, so slugs swapped between two
  // tenants never collide on the unique index mid-statement.
  await sql`DELETE FROM landing.tenants t WHERE NOT EXISTS (
      SELECT 1 FROM jsonb_populate_recordset(NULL::landing.tenants, ${tenants}::jsonb) p
      WHERE p.id = t.id AND p.slug = t.slug)`.execute(trx);
  await sql`INSERT INTO landing.tenants (id, slug, name, plan_code, modules, created_at)
      SELECT id, slug, name, plan_code, modules, created_at
      FROM jsonb_populate_recordset(NULL::landing.tenants, ${tenants}::jsonb)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, plan_code = excluded.plan_code,
      modules = excluded.modules, created_at = excluded.created_at
    WHERE (landing.tenants.name, landing.tenants.plan_code, landing.tenants.modules, landing.tenants.created_at)
      IS DISTINCT FROM (excluded.name, excluded.plan_code, excluded.modules, excluded.created_at)`.execute(
    trx,
  );

  const plans = JSON.stringify(push.plans);
  await sql`DELETE FROM landing.plans WHERE code <> ALL (
      SELECT code FROM jsonb_populate_recordset(NULL::landing.plans, ${plans}::jsonb))`.execute(
    trx,
  );
  // The push's order is the display order.
  await sql`INSERT INTO landing.plans
      (code, name, description, currency, monthly_price_cents, yearly_price_cents, modules, max_users, sort_order)
      SELECT p.code, p.name, coalesce(p.description, ''), p.currency, p.monthly_price_cents,
             p.yearly_price_cents, p.modules, p.max_users, e.ord
      FROM jsonb_array_elements(${plans}::jsonb) WITH ORDINALITY AS e(value, ord),
           jsonb_populate_record(NULL::landing.plans, e.value) AS p
    ON CONFLICT (code) DO UPDATE SET name = excluded.name, description = excluded.description,
      currency = excluded.currency, monthly_price_cents = excluded.monthly_price_cents,
      yearly_price_cents = excluded.yearly_price_cents, modules = excluded.modules,
      max_users = excluded.max_users, sort_order = excluded.sort_order`.execute(trx);

  const metadata = JSON.stringify(push.metadata);
  await sql`DELETE FROM landing.metadata
    WHERE NOT (${metadata}::jsonb ? key)`.execute(trx);
  await sql`INSERT INTO landing.metadata (key, value)
      SELECT key, value FROM jsonb_each(${metadata}::jsonb)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
    WHERE landing.metadata.value IS DISTINCT FROM excluded.value`.execute(trx);
}

async function storedCounts(db: Kysely<Database>): Promise<ErpSyncResult['counts']> {
  const { rows } = await sql<ErpSyncResult['counts']>`SELECT
      (SELECT count(*) FROM landing.tenants)::int AS tenants,
      (SELECT count(*) FROM landing.plans)::int AS plans,
      (SELECT count(*) FROM landing.metadata)::int AS metadata`.execute(db);
  return rows[0] as ErpSyncResult['counts'];
}
