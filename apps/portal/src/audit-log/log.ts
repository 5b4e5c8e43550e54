import type { AuditAction, AuditTargetType } from '@erp/contract';
import { sql } from '@erp/db';
import type { Deps } from '../deps';
import { decodeBeforeCursor, encodeBeforeCursor } from '../http/before-cursor';

const DEFAULT_PAGE_SIZE = 50;

export interface AuditLogQuery {
  action?: AuditAction;
  actor?: string;
  page_size?: number;
  cursor?: string;
}

/**
 * A tenant's audit log, newest first (ids are UUIDv7), one keyset page at a time; each filter
 * has its index. Actors' names are joined now, so a renamed user or key shows its current name.
 */
export async function listAuditLog(deps: Deps, tenantId: string, query: AuditLogQuery) {
  const before = query.cursor === undefined ? undefined : decodeBeforeCursor(query.cursor);
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  const rows = await deps.db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'a.actor_id').on('a.actor_type', '=', 'user'),
    )
    .leftJoin('api_keys as k', (j) =>
      j.onRef('k.id', '=', 'a.actor_id').on('a.actor_type', '=', 'api_key'),
    )
    .select([
      'a.id',
      'a.at',
      'a.action',
      'a.actor_type',
      'a.actor_id',
      sql<string | null>`coalesce(u.name, k.name)`.as('actor_name'),
      'a.target_type',
      'a.target_id',
      'a.address',
      'a.details',
    ])
    .where('a.tenant_id', '=', tenantId)
    .$if(query.action !== undefined, (q) => q.where('a.action', '=', query.action!))
    .$if(query.actor !== undefined, (q) => q.where('a.actor_id', '=', query.actor!))
    .$if(before !== undefined, (q) => q.where('a.id', '<', before!))
    .orderBy('a.id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  return {
    data: page.map((row) => ({
      id: row.id,
      at: new Date(row.at).toISOString(),
      // Written only from the contract's closed lists.
      action: row.action as AuditAction,
      actor:
        row.actor_type && row.actor_id
          ? { type: row.actor_type, id: row.actor_id, name: row.actor_name }
          : null,
      target:
        row.target_type && row.target_id
          ? { type: row.target_type as AuditTargetType, id: row.target_id }
          : null,
      address: row.address,
      details: row.details as Record<string, unknown>,
    })),
    next_cursor: rows.length > pageSize ? encodeBeforeCursor(page.at(-1)!.id) : null,
  };
}
