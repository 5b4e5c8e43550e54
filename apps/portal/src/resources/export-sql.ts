import { type ExportFormat, type FieldType, fieldType, type Resource } from '@erp/contract';
import type { ListQuery } from './list-query';
import { type ReadShape, shapeSql } from './read-shape';
import { orderSql, Params, whereSql } from './sql';

/** Types whose text may hold a comma, a quote or a line break: their cells are always quoted (enums when a value does). */
const QUOTED: ReadonlySet<FieldType> = new Set(['text', 'email', 'json', 'lines']);

/**
 * Every row the list's filters select, in its order, each row one text built by PostgreSQL:
 * the record's JSON (ndjson) or its CSV line. No LIMIT and no keyset: COPY streams the rows
 * as PostgreSQL produces them.
 */
export function exportSql(
  resource: Resource,
  tenantId: string,
  query: Pick<ListQuery, 'filters' | 'order'>,
  shape: ReadShape,
  format: ExportFormat,
) {
  const params = new Params();
  const where = whereSql(resource, tenantId, query, params);
  const line =
    format === 'ndjson'
      ? `row_to_json(x)::text FROM ${resource.table} t CROSS JOIN LATERAL (SELECT ${shapeSql(resource, shape, 't')}) x`
      : `${shape.fields.map((name) => csvCell(resource, name)).join(` || ',' || `)} FROM ${resource.table} t`;
  const text = `SELECT ${line} WHERE ${where.join(' AND ')} ORDER BY ${orderSql(query)}`;
  return { text, params };
}

/** The CSV header row: the field names (snake_case, which never needs quoting). */
export function csvHeader(shape: ReadShape): string {
  return shape.fields.join(',');
}

/**
 * One CSV cell (RFC 4180) of `t.<name>` with the value's text as the JSON answer writes it:
 * null is an empty cell, an empty text `""`, a quote doubled inside quotes, lines and JSON
 * fields their JSON text, timestamps in RFC 3339 as in the JSON.
 */
function csvCell(resource: Resource, name: string): string {
  const field = resource.allFields[name]!;
  const value =
    field.type === 'timestamp'
      ? `(to_json(t.${name}) #>> '{}')`
      : fieldType(field).cast === 'text'
        ? `t.${name}`
        : `t.${name}::text`;
  const quoted =
    QUOTED.has(field.type) ||
    (field.type === 'enum' && field.values.some((v) => /[",\r\n]/.test(v)));
  return quoted
    ? `COALESCE('"' || replace(${value}, '"', '""') || '"', '')`
    : `COALESCE(${value}, '')`;
}
