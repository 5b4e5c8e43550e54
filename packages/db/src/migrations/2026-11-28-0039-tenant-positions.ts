import { type Kysely, sql } from 'kysely';

/**
 * Read replicas with read-your-writes (SPEC §19): each tenant's WAL position after its last
 * write through the API, where every portal instance sees it (the primary). UNLOGGED: it writes
 * no WAL of its own; lost in a crash (a missing position reads as 0), reads go to replicas no
 * further behind than the router's bound until the tenant writes again. The main pool's role
 * writes it; the tenant role never reads it. Coordinator-local under Citus (read before any
 * tenant's shard is chosen).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNLOGGED TABLE tenant_positions (
      tenant_id uuid PRIMARY KEY,
      lsn pg_lsn NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE tenant_positions;`.execute(db);
}
