import { type Embedding, fieldType, type JsonText, type Resource } from '@erp/contract';
import type { ReadShape } from './read-shape';

/** `SELECT` expressions of a whole record as the API returns it (decimals as exact strings), named. */
export function selectList(resource: Resource, alias: string): string {
  return Object.entries(resource.allFields)
    .map(([name, field]) =>
      fieldType(field).selectAsText ? `${alias}.${name}::text AS ${name}` : `${alias}.${name}`,
    )
    .join(', ');
}

/** A shaped record's columns over row `alias`, in answer order, unnamed. */
export interface RecordSelect {
  /** The `SELECT` expressions. */
  select: string[];
  /** Each expression's key in the record's JSON. */
  keys: string[];
  /** How each expression's text is written in the record's JSON (the field type's `jsonText`). */
  kinds: JsonText[];
}

/**
 * The fields of a shaped record (decimals as exact strings), then each embedded record as JSON
 * built by PostgreSQL in the same statement (`embedSql`). Every read builds its record here:
 * the list (whose JSON Node joins, record-json.ts), the get and the export (`row_to_json` over
 * `namedColumns`).
 */
export function recordSelect(resource: Resource, shape: ReadShape, alias: string): RecordSelect {
  const replaced = new Set(shape.embeds.map((e) => e.name));
  const select: string[] = [];
  const keys: string[] = [];
  const kinds: JsonText[] = [];
  for (const name of shape.fields) {
    if (replaced.has(name)) continue;
    const spec = fieldType(resource.allFields[name]!);
    const column = `${alias}.${name}`;
    select.push(spec.selectAsText ? `${column}::text` : column);
    keys.push(name);
    kinds.push(spec.jsonText);
  }
  shape.embeds.forEach((embed, i) => {
    select.push(embedSql(embed, `e${i}`, alias));
    keys.push(embed.name);
    kinds.push('json');
  });
  return { select, keys, kinds };
}

/**
 * One embedded record's JSON: one indexed lookup a row, never a query per record. The lookup is
 * bound to the row's own tenant, and row-level security hides other tenants' rows anyway: a
 * reference forged to another tenant's record embeds null.
 */
function embedSql(embed: Embedding, e: string, alias: string): string {
  return `(SELECT row_to_json(ex) FROM (SELECT ${selectList(embed.target, e)} FROM ${embed.target.table} ${e} WHERE ${e}.tenant_id = ${alias}.tenant_id AND ${e}.id = ${alias}.${embed.field}) ex)`;
}

/** A shaped record's columns named by their keys, for `row_to_json` (the get, the NDJSON export). */
export function namedColumns(resource: Resource, shape: ReadShape, alias: string): string {
  const { select, keys } = recordSelect(resource, shape, alias);
  return select
    .map((sql, i) => (sql === `${alias}.${keys[i]}` ? sql : `${sql} AS ${keys[i]}`))
    .join(', ');
}

/** One record (`$1` the tenant, `$2` its id) as `row_to_json`'s text, and its version. */
export function getSql(resource: Resource, shape: ReadShape): string {
  return `SELECT row_to_json(x)::text AS j, t.version FROM ${resource.table} t CROSS JOIN LATERAL (SELECT ${namedColumns(resource, shape, 't')}) x WHERE t.tenant_id = $1 AND t.id = $2`;
}
