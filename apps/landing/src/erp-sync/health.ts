import { sql } from '@erp/db';
import type { LandingDeps } from '../deps';

/** What `GET /api/erp-sync/health` tells monitoring: no tenant names, counts only. */
export interface SyncHealth {
  status: 'ok' | 'stale' | 'never';
  last_sync_at: string | null;
  generated_at: string | null;
  pushes_received: number;
  counts: { tenants: number; plans: number; metadata: number };
}

/** The sync's state: `never` before the first push, `stale` when the last is older than allowed. */
export async function readSyncHealth(
  deps: Pick<LandingDeps, 'db' | 'env' | 'now'>,
): Promise<SyncHealth> {
  const { rows } = await sql<{
    last_sync_at: Date | null;
    generated_at: Date | null;
    pushes_received: string;
    tenants: number;
    plans: number;
    metadata: number;
  }>`SELECT s.last_sync_at, s.generated_at, s.pushes_received,
      (SELECT count(*) FROM landing.tenants)::int AS tenants,
      (SELECT count(*) FROM landing.plans)::int AS plans,
      (SELECT count(*) FROM landing.metadata)::int AS metadata
    FROM landing.sync_state s`.execute(deps.db);
  const row = rows[0];
  if (!row) throw new Error('landing.sync_state has no row: migrations not applied?');
  const staleAfterMs = deps.env.ERP_SYNC_STALE_AFTER_SECONDS * 1000;
  const status = !row.last_sync_at
    ? 'never'
    : deps.now().getTime() - row.last_sync_at.getTime() > staleAfterMs
      ? 'stale'
      : 'ok';
  return {
    status,
    last_sync_at: row.last_sync_at?.toISOString() ?? null,
    generated_at: row.generated_at?.toISOString() ?? null,
    pushes_received: Number(row.pushes_received),
    counts: { tenants: row.tenants, plans: row.plans, metadata: row.metadata },
  };
}
