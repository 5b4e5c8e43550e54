import { catalogue, type Resource } from '@erp/contract';
import type pg from 'pg';
// The portal's own engine (bench is a tool, not an app): the statement is the one it sends.
import {
  listSql,
  namedColumns,
  type OrderTerm,
  parseListQuery,
  recordColumns,
  wholeRecord,
} from '../../../apps/portal/src/resources/read';
import { listRecords } from '../../../apps/portal/src/resources/records-read';

/** A list request as the portal would run it: statement, parameters and page shape. */
export interface ListStatement {
  /** node-pg's prepared statement name (the portal's `preparedName` of the text). */
  name: string;
  text: string;
  values: unknown[];
  order: OrderTerm[];
  pageSize: number;
  /** The portal's encoder: a row's columns (array mode, raw text) → the record's JSON. */
  encode(row: ReadonlyArray<string | null>): string;
  /** Where each order value is in a row, for the cursor. */
  cursorAt: number[];
}

/** The catalogue's declaration of a resource, by name. */
export function resourceNamed(name: string): Resource {
  const resource = catalogue.find((r) => r.name === name);
  if (!resource) throw new Error(`no resource ${name} in the catalogue`);
  return resource;
}

/** `?a=1&a=2&b=3` as Hono's `c.req.queries()` gives it to the portal: every value of every key. */
export function queriesOf(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) out[key] = [...(out[key] ?? []), value];
  return out;
}

/**
 * Captures the statement the portal's `listRecords` sends for this query string and tenant,
 * by running it once against a client that records the query instead of sending it: so the
 * text, the statement name and the parameters are the portal's, byte for byte.
 */
export async function captureListStatement(
  resource: Resource,
  tenantId: string,
  search: string,
): Promise<ListStatement> {
  const raw = queriesOf(search);
  // The route's zod schema coerces page_size to a number; absent, the engine's default applies.
  const pageSize = raw.page_size ? Number(raw.page_size[0]) : undefined;
  let captured: pg.QueryConfig | undefined;
  const recorder = {
    query: async (config: pg.QueryConfig) => {
      captured = config;
      return { rows: [] };
    },
  } as unknown as pg.PoolClient;
  await listRecords(recorder, resource, tenantId, raw, { pageSize });
  if (!captured?.name) throw new Error('listRecords sent no named statement');
  const query = parseListQuery(resource, raw, pageSize);
  const columns = recordColumns(resource, wholeRecord(resource), 't');
  const built = listSql(resource, tenantId, query, null, columns);
  if (built.text !== captured.text) throw new Error('listSql and listRecords disagree');
  return {
    name: captured.name,
    text: captured.text,
    values: captured.values ?? [],
    order: query.order,
    pageSize: query.pageSize,
    encode: columns.encode,
    cursorAt: built.cursorAt,
  };
}

/**
 * The same page as PostgreSQL built it before the list joined its JSON in Node: `row_to_json`
 * over the record's fields in a lateral subquery, the same rows, order and parameters (a
 * reference for the statement's cost in the same run).
 */
export function rowToJsonForm(resource: Resource, statement: ListStatement): string {
  const text = statement.text;
  const from = text.indexOf(' FROM (SELECT * FROM ');
  const order = text.lastIndexOf(') t ORDER BY ');
  if (from < 0 || order < from) throw new Error('unexpected list statement');
  const cursor = statement.order.map((t, i) => `t.${t.field}::text AS c${i}`).join(', ');
  return `SELECT row_to_json(x)::text AS j, ${cursor}${text.slice(from, order)}) t CROSS JOIN LATERAL (SELECT ${namedColumns(resource, wholeRecord(resource), 't')}) x ORDER BY${text.slice(order + ') t ORDER BY'.length)}`;
}
