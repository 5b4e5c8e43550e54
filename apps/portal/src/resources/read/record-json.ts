import type { Resource } from '@erp/contract';
import type pg from 'pg';
import { type ReadShape, wholeRecord } from './read-shape';
import { recordSelect } from './record-sql';

/** What JSON escapes in a string: `"`, `\\` and the control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

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
  // The whole record's shape is one object per resource (`wholeRecord`): found without a key.
  const whole = alias === 't' ? byShape.get(shape) : undefined;
  if (whole) return whole;
  // Shapes repeat (most requests read whole records): built once per shape, up to a bound.
  const key = `${alias}|${shape.fields.join(',')}|${shape.embeds.map((e) => e.name).join(',')}`;
  let cache = built.get(resource);
  if (!cache) {
    cache = new Map();
    built.set(resource, cache);
  }
  let columns = cache.get(key);
  if (!columns) {
    columns = buildColumns(resource, shape, alias);
    if (cache.size < 1000) cache.set(key, columns);
  }
  if (alias === 't' && shape === wholeRecord(resource)) byShape.set(shape, columns);
  return columns;
}

const built = new WeakMap<Resource, Map<string, RecordColumns>>();
const byShape = new WeakMap<ReadShape, RecordColumns>();

/**
 * How a column's text becomes its JSON value in Node, byte for byte what PostgreSQL's
 * `row_to_json` writes for it, by the kind its field type's `jsonText` names (the contract's
 * FIELD_TYPES):
 * - `string`: escaped as JSON (`JSON.stringify` escapes exactly what `escape_json` does);
 * - `quoted`: text that never needs escaping, put in quotes: uuids, decimals read `::text`, and
 *   dates, whose ISO text is their JSON form (`2026-03-05`, `0044-03-15 BC`, `infinity`);
 * - `timestamp`: ISO text (`2026-03-05 10:11:12.5+01`) to JSON (`2026-03-05T10:11:12.5+01:00`):
 *   the same digits, a `T`, and the offset's minutes always written, as `to_json` writes them;
 * - `number`: integers, written bare;
 * - `boolean`: PostgreSQL's `t` / `f`;
 * - `json`: already JSON text: `jsonb` columns and embedded records.
 * Dates and timestamps assume the session's DateStyle writes ISO (PostgreSQL's default), as
 * node-pg's own date parsing does for every other read of the portal.
 */
function buildColumns(resource: Resource, shape: ReadShape, alias: string): RecordColumns {
  const { select, keys, kinds } = recordSelect(resource, shape, alias);
  // `{"id":`, `,"number":`, …: what comes before each value.
  const before = keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  const count = select.length;
  // Every column but booleans (`t`), embedded records and JSON comes as its `::text`.
  const asText = new Map<string, number>();
  keys.forEach((key, i) => {
    if (kinds[i] !== 'boolean' && kinds[i] !== 'json') asText.set(key, i);
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
            case 'timestamp':
              json += timestampJson(value);
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

/**
 * A timestamptz's ISO text as `to_json` writes it (PostgreSQL's EncodeDateTime, ISO vs XSD
 * style): `T` between date and time, and an offset of whole hours gets its `:00`. Infinities
 * and the ` BC` suffix read the same in both.
 */
export function timestampJson(text: string): string {
  const space = text.indexOf(' ');
  if (space === -1) return `"${text}"`;
  const bc = text.endsWith(' BC');
  const end = bc ? text.length - 3 : text.length;
  const sign = Math.max(text.lastIndexOf('+', end), text.lastIndexOf('-', end));
  const hoursOnly = end - sign === 3;
  return `"${text.slice(0, space)}T${text.slice(space + 1, end)}${hoursOnly ? ':00' : ''}${bc ? ' BC' : ''}"`;
}

const asIs = (value: string) => value;
/** Every column as PostgreSQL's text, unparsed: `recordColumns` reads them as they come. */
export const RAW_TEXT: pg.CustomTypesConfig = { getTypeParser: () => asIs };
