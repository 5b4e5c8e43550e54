import { ApiError, type Resource } from '@erp/contract';
import type pg from 'pg';
import { decodeCursor, encodeCursor } from './cursor';
import { parseListQuery } from './list-query';
import { mapReadError } from './pg-errors';
import { listSql, selectList } from './sql';
import { preparedName } from './statement-name';

/** One page of a list as the JSON text of `{data, next_cursor}`. */
export async function listRecords(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  rawQuery: Record<string, string[]>,
  options: { pageSize?: number; cursor?: string },
): Promise<string> {
  const query = parseListQuery(resource, rawQuery, options.pageSize);
  const cursor = options.cursor ? decodeCursor(resource, query.order, options.cursor) : null;
  const { text, params } = listSql(resource, tenantId, query, cursor);
  const { rows } = await client
    .query<Record<string, string>>({ name: preparedName(text), text, values: params.values })
    .catch((error) => mapReadError(error, params));
  const page = rows.slice(0, query.pageSize);
  const last = page[page.length - 1];
  const next =
    rows.length > query.pageSize && last
      ? encodeCursor(
          query.order,
          query.order.map((_, i) => last[`c${i}`]!),
        )
      : null;
  return `{"data":[${page.map((r) => r.j).join(',')}],"next_cursor":${next ? `"${next}"` : 'null'}}`;
}

/** One record as JSON text and its version (for the ETag), or `introuvable`. */
export async function getRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
) {
  const text = `SELECT row_to_json(x)::text AS j, t.version FROM ${resource.table} t CROSS JOIN LATERAL (SELECT ${selectList(resource, 't')}) x WHERE t.tenant_id = $1 AND t.id = $2`;
  const { rows } = await client.query<{ j: string; version: number }>({
    name: preparedName(text),
    text,
    values: [tenantId, id],
  });
  if (!rows[0]) throw notFound(resource, id);
  return { json: rows[0].j, version: rows[0].version };
}

export function notFound(resource: Resource, id: string): ApiError {
  return new ApiError(
    'introuvable',
    `No ${resource.name.replace(/_/g, ' ')} ${id} in this tenant.`,
    { resource: resource.name, id },
  );
}
