import { fieldType, type Resource } from '@erp/contract';
import { CURSOR, Params } from '../sql-params';
import type { Filter, ListQuery } from './list-query';

const COMPARISON = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
} as const;

function filterSql(resource: Resource, filter: Filter, params: Params): string {
  const column = `t.${filter.field}`;
  const type = fieldType(resource.allFields[filter.field]!).cast;
  if (filter.op === 'is') return `${column} IS ${filter.value.toUpperCase()}`;
  if (filter.op === 'in')
    return `${column} = ANY(${params.add(filter.values, `${type}[]`, filter.field)})`;
  const cast = filter.op === 'like' || filter.op === 'ilike' ? 'text' : type;
  return `${column} ${COMPARISON[filter.op]} ${params.add(filter.value, cast, filter.field)}`;
}

/**
 * Keyset condition "after the cursor row" for a mixed-direction order:
 * (a > va) OR (a = va AND b < vb) OR (a = va AND b = vb AND id < vid) ...
 * A single-direction order uses a row comparison, which the index serves directly.
 */
function keysetSql(resource: Resource, query: ListQuery, cursor: string[], params: Params): string {
  const typed = query.order.map((term, i) => ({
    column: `t.${term.field}`,
    param: params.add(cursor[i], fieldType(resource.allFields[term.field]!).cast, CURSOR),
    direction: term.direction,
  }));
  if (typed.every((t) => t.direction === typed[0]!.direction)) {
    const op = typed[0]!.direction === 'asc' ? '>' : '<';
    return `(${typed.map((t) => t.column).join(', ')}) ${op} (${typed.map((t) => t.param).join(', ')})`;
  }
  const disjuncts = typed.map((term, i) => {
    const equal = typed.slice(0, i).map((t) => `${t.column} = ${t.param}`);
    return `(${[...equal, `${term.column} ${term.direction === 'asc' ? '>' : '<'} ${term.param}`].join(' AND ')})`;
  });
  return `(${disjuncts.join(' OR ')})`;
}

/** The list's conditions: the tenant, then each filter (the cursor's keyset is the caller's). */
export function whereSql(
  resource: Resource,
  tenantId: string,
  query: Pick<ListQuery, 'filters'>,
  params: Params,
): string[] {
  const where = [`t.tenant_id = ${params.add(tenantId, 'uuid')}`];
  for (const filter of query.filters) where.push(filterSql(resource, filter, params));
  return where;
}

/** `ORDER BY` terms over the table's own columns (`t`). */
export function orderSql(query: Pick<ListQuery, 'order'>): string {
  return query.order.map((t) => `t.${t.field} ${t.direction.toUpperCase()}`).join(', ');
}

/** The columns of the page's records, and where each one's text is its `::text` (record-json.ts). */
export interface PageColumns {
  select: readonly string[];
  textAt(field: string): number | undefined;
}

/**
 * One page: each row's columns as text (Node joins them into the record's JSON, `encode` of
 * record-json.ts's `recordColumns`), then the order values of each row for the next cursor.
 * Fetches one row more than the page to know whether there is a next page. The page's rows are
 * found first (the inner `LIMIT`), then read and shaped (fields, embedded records): embedding
 * costs a lookup per row of the page only.
 */
export function listSql(
  resource: Resource,
  tenantId: string,
  query: ListQuery,
  cursor: string[] | null,
  columns: PageColumns,
) {
  const params = new Params();
  const where = whereSql(resource, tenantId, query, params);
  if (cursor) where.push(keysetSql(resource, query, cursor, params));
  // Each order value for the cursor: the record's own column when it already holds `::text`.
  const select = [...columns.select];
  const cursorAt = query.order.map((term) => {
    const at = columns.textAt(term.field);
    if (at !== undefined) return at;
    select.push(`t.${term.field}::text`);
    return select.length - 1;
  });
  const text = `SELECT ${select.join(', ')} FROM (SELECT * FROM ${resource.table} t WHERE ${where.join(' AND ')} ORDER BY ${orderSql(query)} LIMIT ${query.pageSize + 1}) t ORDER BY ${orderSql(query)}`;
  return { text, params, cursorAt };
}

/** How many rows the list's filters match, all pages together (`Prefer: count=exact`). */
export function countSql(resource: Resource, tenantId: string, query: ListQuery) {
  const params = new Params();
  const where = whereSql(resource, tenantId, query, params);
  return {
    text: `SELECT count(*) AS n FROM ${resource.table} t WHERE ${where.join(' AND ')}`,
    params,
  };
}
