import { type Kysely, sql } from 'kysely';

/**
 * What each webhook delivery costs PostgreSQL to write (issue 30), integrity unchanged:
 *
 * - `webhook_deliveries` and `webhook_delivery_attempts` lose their direct reference to
 *   `tenants`: a check (an index probe and a lock on the tenant's row) per delivery and per
 *   attempt, for a guarantee their composite references already give. A delivery references its
 *   event by `(tenant_id, event_id)` and an event references its tenant (both NOT NULL, ON DELETE
 *   CASCADE); an attempt references its delivery by `(tenant_id, delivery_id)`. So every row's
 *   tenant exists, and deleting a tenant still deletes them (through its events and
 *   subscriptions). The references to events and subscriptions stay: their cascades are how the
 *   retention purge and a subscription's deletion take the deliveries with them.
 * - `webhook_deliveries` keeps half of each page free (`fillfactor` 50): a delivery is written
 *   once and updated at each attempt, in columns no index holds, so the update can stay on its
 *   page (a HOT update) instead of writing a new row version into all four indexes.
 * - `webhook_claims` rows are never toasted below a page (`toast_tuple_target`): a claim's array
 *   of delivery ids (16 bytes each) passed the default 2 kB from about 127 deliveries, and was
 *   compressed (in vain: they are random) and written to the TOAST table, to be deleted moments
 *   later with the claim.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_tenant_id_fkey;
    ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT webhook_delivery_attempts_tenant_id_fkey;
    ALTER TABLE webhook_deliveries SET (fillfactor = 50);
    ALTER TABLE webhook_claims SET (toast_tuple_target = 8160);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE webhook_claims RESET (toast_tuple_target);
    ALTER TABLE webhook_deliveries RESET (fillfactor);
    ALTER TABLE webhook_delivery_attempts ADD CONSTRAINT webhook_delivery_attempts_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE;
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE;
  `.execute(db);
}
