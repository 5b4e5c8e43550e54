import { type Kysely, sql } from 'kysely';

/**
 * The numbering never reads the whole `events` table (issue 30). 0046 took bitmap scans away
 * from `assign_event_sequences`; the planner could still choose a sequential scan of `events`
 * to find the waiting ones, and did whenever `events` had last been analysed while a backlog
 * waited (a worker stopped, a burst of writes): the statistics then say most events wait, and
 * every poll of the worker (one every 200 ms while it drains or sleeps) read the whole table,
 * 32 ms a poll in the webhooks bench, more as the table grows. Without sequential scans the
 * partial index `events_unsequenced` is the way: its cost is the waiting events and the
 * entries of numbered ones not yet vacuumed, which each plain index scan marks dead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER FUNCTION assign_event_sequences(uuid, boolean) SET enable_seqscan = off;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER FUNCTION assign_event_sequences(uuid, boolean) RESET enable_seqscan;
  `.execute(db);
}
