import { type Kysely, sql } from 'kysely';

/**
 * Read replicas with read-your-writes (SPEC §19): each principal's WAL position after its last
 * write, where every portal instance sees it (the primary). UNLOGGED: it writes no WAL of its
 * own, and lost in a crash it only sends reads to the primary until the principal writes again
 * (a missing position reads as 0, which any replica has replayed: see the router, which also
 * leaves out replicas further behind than its bound). The main pool's role writes it; the
 * tenant role never reads it. Not a tenant table: coordinator-local under Citus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE principal_positions (
      principal text PRIMARY KEY,
      lsn pg_lsn NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE principal_positions;`.execute(db);
}
