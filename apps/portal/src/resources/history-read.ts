import type { Resource } from '@erp/contract';
import type pg from 'pg';
import { invalidCursor } from './read';
import { notFound } from './records-read';
import { preparedName } from './statement-name';

const DEFAULT_PAGE_SIZE = 50;

/**
 * One page of a record's history, newest first, as the JSON text of `{data, next_cursor}`:
 * a keyset on the version (the primary key's last column), the actor's name joined as it is
 * now. No version at all is `introuvable`, unless the record exists (records made before
 * history was recorded have none yet): a deleted record keeps its history.
 */
export async function recordHistory(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  options: { pageSize?: number; cursor?: string },
): Promise<string> {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const before = options.cursor === undefined ? null : decodeHistoryCursor(options.cursor);
  const text = `SELECT json_build_object('version', h.version, 'at', h.at, 'actor', json_build_object('type', h.actor_type, 'id', h.actor_id, 'name', record_history_actor_name(h.resource, h.record_id, h.version)), 'action', h.action, 'changes', h.changes)::text AS j, h.version
    FROM record_history h
   WHERE h.tenant_id = $1 AND h.resource = $2 AND h.record_id = $3 AND ($4::int IS NULL OR h.version < $4::int)
   ORDER BY h.version DESC LIMIT $5`;
  const { rows } = await client.query<{ j: string; version: number }>({
    name: preparedName(text),
    text,
    values: [tenantId, resource.name, id, before, pageSize + 1],
  });
  if (rows.length === 0 && !(await recordKnown(client, resource, tenantId, id)))
    throw notFound(resource, id);
  const page = rows.slice(0, pageSize);
  const next = rows.length > pageSize ? encodeHistoryCursor(page[page.length - 1]!.version) : null;
  return `{"data":[${page.map((r) => r.j).join(',')}],"next_cursor":${next ? `"${next}"` : 'null'}}`;
}

/** The record exists, or once had a version in this tenant. */
async function recordKnown(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
): Promise<boolean> {
  const text = `SELECT EXISTS (SELECT 1 FROM ${resource.table} t WHERE t.tenant_id = $1 AND t.id = $2)
      OR EXISTS (SELECT 1 FROM record_history h WHERE h.tenant_id = $1 AND h.resource = $3 AND h.record_id = $2) AS known`;
  const { rows } = await client.query<{ known: boolean }>({
    name: preparedName(text),
    text,
    values: [tenantId, id, resource.name],
  });
  return rows[0]!.known;
}

/** Opaque like the lists' cursors: base64url of `["history", <last version shown>]`. */
function encodeHistoryCursor(version: number): string {
  return Buffer.from(JSON.stringify(['history', version])).toString('base64url');
}

function decodeHistoryCursor(raw: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || decoded[0] !== 'history')
    throw invalidCursor();
  const version = decoded[1];
  if (!Number.isInteger(version) || version < 1 || version > 2_147_483_647) throw invalidCursor();
  return version as number;
}
