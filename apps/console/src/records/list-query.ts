/**
 * The list's state in the page's own query string, in the API's PostgREST syntax
 * (`?status=eq.confirme&order=order_date.desc&cursor=…`): a list can be bookmarked, shared
 * and deep-linked, and what the address bar shows is exactly what the API is asked.
 */
import { in_ } from '@erp/sdk';
import type { FilterOperator, ResourceInfo } from './catalogue-types';

export interface FilterRow {
  field: string;
  op: FilterOperator;
  /** The value as typed; for `in`, comma-separated items. */
  value: string;
}

export interface ListState {
  filters: FilterRow[];
  order: { field: string; direction: 'asc' | 'desc' } | undefined;
  cursor: string | undefined;
}

const RESERVED = new Set(['order', 'cursor', 'page_size']);

/** Reads the query string; keys that are not filterable fields of `resource` are ignored. */
export function parseListState(resource: ResourceInfo, search: string): ListState {
  const params = new URLSearchParams(search);
  const filterable = new Set(resource.fields.filter((f) => f.filterable).map((f) => f.name));
  const filters: FilterRow[] = [];
  for (const [key, expression] of params) {
    if (RESERVED.has(key) || !filterable.has(key)) continue;
    const dot = expression.indexOf('.');
    if (dot < 1) continue;
    const op = expression.slice(0, dot) as FilterOperator;
    const raw = expression.slice(dot + 1);
    filters.push({ field: key, op, value: op === 'in' ? inItems(raw).join(', ') : raw });
  }
  const [field, direction] = (params.get('order') ?? '').split('.');
  const sortable = resource.fields.some((f) => f.name === field && f.sortable);
  return {
    filters,
    order:
      field && sortable ? { field, direction: direction === 'desc' ? 'desc' : 'asc' } : undefined,
    cursor: params.get('cursor') ?? undefined,
  };
}

/** The API query: one `field=op.value` per filter (a field may repeat: conditions AND). */
export function apiQuery(state: ListState): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const row of state.filters) {
    if (row.value === '' && row.op !== 'is') continue;
    query[row.field] = [...(query[row.field] ?? []), expression(row)];
  }
  if (state.order) query.order = [`${state.order.field}.${state.order.direction}`];
  if (state.cursor) query.cursor = [state.cursor];
  return query;
}

/** The page's query string for a state (keeps `(`, `)`, `,`, `.` and `*` readable). */
export function searchOf(state: ListState): string {
  const pairs = Object.entries(apiQuery(state)).flatMap(([key, values]) =>
    values.map((v) => `${encodeURIComponent(key)}=${encode(v)}`),
  );
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%28/g, '(').replace(/%29/g, ')');
}

function expression(row: FilterRow): string {
  if (row.op === 'in') {
    const items = row.value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    return in_(items);
  }
  return `${row.op}.${row.value}`;
}

/** `(a,"b,c")` → [`a`, `b,c`]. */
export function inItems(raw: string): string[] {
  const body = raw.replace(/^\(/, '').replace(/\)$/, '');
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted && c === '\\') current += body[++i] ?? '';
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      items.push(current);
      current = '';
    } else current += c;
  }
  if (current || items.length) items.push(current);
  return items;
}
