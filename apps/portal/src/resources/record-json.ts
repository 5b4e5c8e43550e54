import type { Field, FieldType, Resource } from '@erp/contract';
import type pg from 'pg';
import type { ReadShape } from './read-shape';
import { selectList } from './sql';

/**
 * How a column's text becomes its JSON value in Node, byte for byte what PostgreSQL's
 * `row_to_json` writes for it:
 * - `string`: escaped as JSON (`JSON.stringify` escapes exactly what `escape_json` does);
 * - `quoted`: text that never needs escaping (uuids, decimals read `::text`), put in quotes;
 * - `number`: integers, written bare;
 * - `boolean`: PostgreSQL's `t` / `f`;
 * - `json`: already JSON text: `jsonb` columns, embedded records, and dates and timestamps
 *   read through `to_json` (their JSON form is not their text form: `T`, `+00:00`, and
 *   DateStyle does not apply).
 */
type Kind = 'string' | 'quoted' | 'number' | 'boolean' | 'json';

/** What JSON escapes in a string: `"`, `\\` and the control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Each field type's column, read as text: its kind and the SQL that selects it (`c`: the column). */
const READ_AS: Record<FieldType, { kind: Kind; sql?: (c: string) => string }> = {
  text: { kind: 'string' },
  email: { kind: 'string' },
  enum: { kind: 'string' },
  integer: { kind: 'number' },
  money: { kind: 'number' },
  decimal: { kind: 'quoted', sql: (c) => `${c}::text` },
  boolean: { kind: 'boolean' },
  date: { kind: 'json', sql: (c) => `to_json(${c})` },
  timestamp: { kind: 'json', sql: (c) => `to_json(${c})` },
  uuid: { kind: 'quoted' },
  reference: { kind: 'quoted' },
  lines: { kind: 'json' },
  json: { kind: 'json' },
};

/** A shaped record as columns PostgreSQL sends as plain text, and how Node joins them into its JSON. */
export interface RecordColumns {
  /** The `SELECT` expressions, in answer order. */
  select: string[];
  /** The record's JSON text from the first `select.length` values of a row (array mode, raw text). */
  encode(row: ReadonlyArray<string | null>): string;
  /** Where a field's column is whose text is the field's `::text` (what a cursor keeps), if any. */
  textAt(field: string): number | undefined;
}

/**
 * Why not `row_to_json` in the statement: on a 50-row page of a 31-field record PostgreSQL
 * spent more on building the JSON (a type lookup and an output call per value, then escaping)
 * than on everything else; sending the columns as text costs it about half, and Node joins
 * them for less than it saves (see docs/decisions.md, "The list builds its JSON in Node").
 */
export function recordColumns(resource: Resource, shape: ReadShape, alias: string): RecordColumns {
  // Shapes repeat (most requests read whole records): built once per shape, up to a bound.
  const key = `${alias}|${shape.fields.join(',')}|${shape.embeds.map((e) => e.name).join(',')}`;
  let cache = built.get(resource);
  if (!cache) built.set(resource, (cache = new Map()));
  let columns = cache.get(key);
  if (!columns) {
    columns = buildColumns(resource, shape, alias);
    if (cache.size < 1000) cache.set(key, columns);
  }
  return columns;
}

const built = new WeakMap<Resource, Map<string, RecordColumns>>();

function buildColumns(resource: Resource, shape: ReadShape, alias: string): RecordColumns {
  const replaced = new Set(shape.embeds.map((e) => e.name));
  const select: string[] = [];
  const kinds: Kind[] = [];
  const keys: string[] = [];
  for (const name of shape.fields) {
    if (replaced.has(name)) continue;
    const { kind, sql } = READ_AS[(resource.allFields[name] as Field).type];
    const column = `${alias}.${name}`;
    select.push(sql ? sql(column) : column);
    kinds.push(kind);
    keys.push(name);
  }
  shape.embeds.forEach((embed, i) => {
    const e = `e${i}`;
    select.push(
      `(SELECT row_to_json(ex) FROM (SELECT ${selectList(embed.target, e)} FROM ${embed.target.table} ${e} WHERE ${e}.tenant_id = ${alias}.tenant_id AND ${e}.id = ${alias}.${embed.field}) ex)`,
    );
    kinds.push('json');
    keys.push(embed.name);
  });
  // `{"id":`, `,"number":`, …: what comes before each value.
  const before = keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  const count = select.length;
  // Text, uuids, integers and decimals (read `::text`) come as their `::text`; not booleans
  // (`t`), nor dates and timestamps (read as JSON).
  const asText = new Map<string, number>();
  keys.forEach((key, i) => {
    if (kinds[i] === 'string' || kinds[i] === 'quoted' || kinds[i] === 'number') asText.set(key, i);
  });
  return {
    select,
    textAt: (field) => asText.get(field),
    encode(row) {
      let json = '';
      for (let i = 0; i < count; i++) {
        const value = row[i];
        json += before[i];
        if (value === null || value === undefined) json += 'null';
        else {
          switch (kinds[i]) {
            case 'string':
              // Most texts need no escape: a scan is cheaper than JSON.stringify's call.
              json += NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
              break;
            case 'quoted':
              json += `"${value}"`;
              break;
            case 'boolean':
              json += value === 't' ? 'true' : 'false';
              break;
            default:
              json += value;
          }
        }
      }
      return count === 0 ? '{}' : `${json}}`;
    },
  };
}

const asIs = (value: string) => value;
/** Every column as PostgreSQL's text, unparsed: `recordColumns` reads them as they come. */
export const RAW_TEXT: pg.CustomTypesConfig = { getTypeParser: () => asIs };
