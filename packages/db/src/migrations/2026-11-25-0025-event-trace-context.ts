import { type Kysely, sql } from 'kysely';

/**
 * `events.trace_context`: the W3C `traceparent` of the span that recorded the event (the
 * portal's request), or NULL when tracing is off (SPEC §15). The worker's delivery span links
 * to it, so a trace viewer goes from a webhook attempt to the request that caused it. A
 * nullable column without default: adding it rewrites nothing, and writers that do not name it
 * (tracing off, older code) store NULL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events ADD COLUMN trace_context text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE events DROP COLUMN trace_context`.execute(db);
}
