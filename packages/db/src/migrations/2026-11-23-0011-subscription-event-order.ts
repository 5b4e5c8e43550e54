import { type Kysely, sql } from 'kysely';

/**
 * Payment providers do not order their deliveries: `provider_event_at` is when the provider
 * says the last applied change happened, so an older one arriving later is ignored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE subscriptions ADD COLUMN provider_event_at timestamptz NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE subscriptions DROP COLUMN provider_event_at`.execute(db);
}
