import { type ExportFormat, fieldType, type Resource } from '@erp/contract';
import { Params } from '../sql-params';
import type { ListQuery } from './list-query';
import { orderSql, whereSql } from './list-sql';
import type { ReadShape } from './read-shape';
import { namedColumns } from './record-sql';

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
      ? `row_to_json(x)::text FROM ${resource.table} t CROSS JOIN LATERAL (SELECT ${namedColumns(resource, shape, 't')}) x`
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
 * fields their JSON text, timestamps in RFC 3339 as in the JSON. A text starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (SPEC §16, OWASP's CSV
 * injection rule), so a spreadsheet shows it instead of evaluating it.
 */
function csvCell(resource: Resource, name: string): string {
  const field = resource.allFields[name]!;
  const spec = fieldType(field);
  const text =
    field.type === 'timestamp'
      ? `(to_json(t.${name}) #>> '{}')`
      : spec.cast === 'text'
        ? `t.${name}`
        : `t.${name}::text`;
  const value = spec.csvNeutralised ? neutralised(text) : text;
  // An enum's cells are quoted when one of its values needs it.
  const quoted =
    spec.csvQuoted || (field.type === 'enum' && field.values.some((v) => /[",\r\n]/.test(v)));
  return quoted
    ? `COALESCE('"' || replace(${value}, '"', '""') || '"', '')`
    : `COALESCE(${value}, '')`;
}

/** `'` before a text a spreadsheet would take for a formula; null stays null. */
function neutralised(text: string): string {
  return `(CASE WHEN left(${text}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${text} ELSE ${text} END)`;
}
