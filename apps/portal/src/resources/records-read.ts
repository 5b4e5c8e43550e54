import { ApiError, type Resource } from '@erp/contract';
import type pg from 'pg';
import { mapReadError } from './pg-errors';
import {
  countSql,
  decodeCursor,
  encodeCursor,
  getSql,
  type ListQuery,
  listSql,
  parseListQuery,
  RAW_TEXT,
  type ReadShape,
  recordColumns,
  wholeRecord,
} from './read';
import { preparedName } from './statement-name';

/**
 * One page of a list as the JSON text of `{data, next_cursor}`, shaped by `select` and `embed`;
 * with `count`, `total` too (every row the filters match, counted by a second statement).
 */
export async function listRecords(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  rawQuery: Record<string, string[]>,
  options: { pageSize?: number; cursor?: string; shape?: ReadShape; count?: boolean },
): Promise<string> {
  const query = parseListQuery(resource, rawQuery, options.pageSize);
  const cursor = options.cursor ? decodeCursor(resource, query.order, options.cursor) : null;
  const shape = options.shape ?? wholeRecord(resource);
  const columns = recordColumns(resource, shape, 't');
  const { text, params, cursorAt } = listSql(resource, tenantId, query, cursor, columns);
  const { rows } = await client
    .query<Array<string | null>>({
      name: preparedName(text),
      text,
      values: params.values,
      rowMode: 'array',
      types: RAW_TEXT,
    })
    .catch((error) => mapReadError(error, params));
  const page = rows.length > query.pageSize ? rows.slice(0, query.pageSize) : rows;
  const last = page[page.length - 1];
  const next =
    rows.length > query.pageSize && last
      ? encodeCursor(
          query.order,
          cursorAt.map((at) => last[at]!),
        )
      : null;
  const total = options.count
    ? `,"total":${await countRecords(client, resource, tenantId, query)}`
    : '';
  return `{"data":[${page.map(columns.encode).join(',')}],"next_cursor":${next ? `"${next}"` : 'null'}${total}}`;
}

async function countRecords(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  query: ListQuery,
): Promise<number> {
  const { text, params } = countSql(resource, tenantId, query);
  const { rows } = await client
    .query<{ n: string }>({ name: preparedName(text), text, values: params.values })
    .catch((error) => mapReadError(error, params));
  return Number(rows[0]!.n);
}

/** One record as JSON text (shaped by `select` and `embed`) and its version (for the ETag), or `introuvable`. */
export async function getRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  shape: ReadShape = wholeRecord(resource),
) {
  const text = getSql(resource, shape);
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
