import { type Kysely, sql } from 'kysely';

/**
 * The numbering finds waiting events through plain index scans, never bitmap scans (issue 30).
 * `events_unsequenced` keeps an entry per numbered event until VACUUM (the update that numbers
 * an event is not HOT), and the planner read it with a bitmap scan, which visits the heap of
 * every such entry and never marks one dead: each call of `assign_event_sequences()` (the
 * worker's poll, ~5 a second while it drains) walked every event numbered since the last
 * VACUUM (0.6 ms a call with 10,000 of them, 31 ms in the bench's database). A plain index
 * scan marks the entries of rows no snapshot can see any more as dead in the index (btree's
 * kill_prior_tuple), so the next scan skips them without reading the heap: ~0.1 ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER FUNCTION assign_event_sequences(uuid, boolean) SET enable_bitmapscan = off;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER FUNCTION assign_event_sequences(uuid, boolean) RESET enable_bitmapscan;
  `.execute(db);
}
