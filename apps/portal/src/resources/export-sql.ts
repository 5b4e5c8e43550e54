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
 * Types whose text someone typed (or chose): a cell of theirs that a spreadsheet would read as
 * a formula is neutralised. Numbers, dates, timestamps, booleans and ids are written by
 * PostgreSQL from a typed value: they can start only with `-` as a negative number, which a
 * spreadsheet reads as that number, and a prefix would turn `-12.50` into text.
 */
const NEUTRALISED: ReadonlySet<FieldType> = new Set(['text', 'email', 'enum', 'json', 'lines']);

/**
 * One CSV cell (RFC 4180) of `t.<name>` with the value's text as the JSON answer writes it:
 * null is an empty cell, an empty text `""`, a quote doubled inside quotes, lines and JSON
 * fields their JSON text, timestamps in RFC 3339 as in the JSON. A text starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (SPEC §16, OWASP's CSV
 * injection rule), so a spreadsheet shows it instead of evaluating it.
 */
function csvCell(resource: Resource, name: string): string {
  const field = resource.allFields[name]!;
  const text =
    field.type === 'timestamp'
      ? `(to_json(t.${name}) #>> '{}')`
      : fieldType(field).cast === 'text'
        ? `t.${name}`
        : `t.${name}::text`;
  const value = NEUTRALISED.has(field.type) ? neutralised(text) : text;
  const quoted =
    QUOTED.has(field.type) ||
    (field.type === 'enum' && field.values.some((v) => /[",\r\n]/.test(v)));
  return quoted
    ? `COALESCE('"' || replace(${value}, '"', '""') || '"', '')`
    : `COALESCE(${value}, '')`;
}

/** `'` before a text a spreadsheet would take for a formula; null stays null. */
function neutralised(text: string): string {
  return `(CASE WHEN left(${text}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${text} ELSE ${text} END)`;
}
