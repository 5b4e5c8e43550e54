import { catalogue, type Resource } from '@erp/contract';
import type pg from 'pg';
// The portal's own engine (bench is a tool, not an app): the statement is the one it sends.
import { type OrderTerm, parseListQuery } from '../../../apps/portal/src/resources/list-query';
import { wholeRecord } from '../../../apps/portal/src/resources/read-shape';
import { listRecords } from '../../../apps/portal/src/resources/records-read';
import { listSql } from '../../../apps/portal/src/resources/sql';

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
  const built = listSql(resource, tenantId, query, null, wholeRecord(resource));
  if (built.text !== captured.text) throw new Error('listSql and listRecords disagree');
  return {
    name: captured.name,
    text: captured.text,
    values: captured.values ?? [],
    order: query.order,
    pageSize: query.pageSize,
    encode: built.encode,
    cursorAt: built.cursorAt,
  };
}
