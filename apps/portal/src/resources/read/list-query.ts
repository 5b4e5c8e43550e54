import {
  ApiError,
  FIELD_TYPES,
  type Field,
  type FilterOperator,
  isStorableText,
  parseFieldValue,
  type Resource,
} from '@erp/contract';

export const DEFAULT_PAGE_SIZE = 50;
/** Parameters that are not filters: the page's and the read shape's (SPEC §12). */
const RESERVED = new Set(['page_size', 'cursor', 'order', 'select', 'embed']);
/** Longest filter value: a bound on what one URL value may make the database compare. */
const MAX_VALUE_LENGTH = 1000;

/** One condition of a list query, with its values already checked against the field's type. */
export type Filter =
  | { field: string; op: Exclude<FilterOperator, 'in' | 'is'>; value: string }
  | { field: string; op: 'in'; values: string[] }
  | { field: string; op: 'is'; value: 'null' | 'true' | 'false' };

export interface OrderTerm {
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListQuery {
  filters: Filter[];
  /** Always ends with `id`, so the order is total and keyset pagination exact. */
  order: OrderTerm[];
  pageSize: number;
}

/** Parses `<field>=<op>.<value>` filters and `order` from the raw query (every value of every key). */
export function parseListQuery(
  resource: Resource,
  query: Record<string, string[]>,
  pageSize = DEFAULT_PAGE_SIZE,
): ListQuery {
  const filters: Filter[] = [];
  for (const [key, values] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    const field = fieldNamed(resource, key);
    if (!field) throw invalid(`Unknown field ${key}.`, { field: key, reason: 'unknown_field' });
    if (!field.filterable)
      throw invalid(`Field ${key} cannot be filtered on.`, {
        field: key,
        reason: 'not_filterable',
      });
    for (const expression of values) filters.push(parseFilter(resource, key, expression));
  }
  const orderValues = query.order ?? [];
  if (orderValues.length > 1)
    throw invalid('Give order once, comma-separated.', { field: 'order', reason: 'repeated' });
  return { filters, order: parseOrder(resource, orderValues[0]), pageSize };
}

function parseFilter(resource: Resource, key: string, expression: string): Filter {
  const field = resource.allFields[key]!;
  const dot = expression.indexOf('.');
  if (dot === -1) {
    throw invalid(`Filter ${key}=${expression} must read <op>.<value>.`, {
      field: key,
      value: expression,
      reason: 'invalid_expression',
    });
  }
  const op = expression.slice(0, dot) as FilterOperator;
  const raw = expression.slice(dot + 1);
  if (!FIELD_TYPES[field.type].operators.includes(op)) {
    throw invalid(`Operator "${op}" does not apply to ${key} (${field.type}).`, {
      field: key,
      operator: op,
      reason: 'unknown_operator',
      allowed: FIELD_TYPES[field.type].operators,
    });
  }
  const badValue = (value: string) =>
    invalid(`"${value}" is not a valid value of ${key} (${field.type}).`, {
      field: key,
      operator: op,
      value,
      reason: 'invalid_value',
    });
  if (op === 'is') {
    const allowed = field.type === 'boolean' ? ['null', 'true', 'false'] : ['null'];
    if (!allowed.includes(raw)) throw badValue(raw);
    return { field: key, op, value: raw as 'null' | 'true' | 'false' };
  }
  if (op === 'in') {
    const items = parseList(raw);
    if (!items)
      throw invalid(`in needs a list: ${key}=in.(a,b,"c,d").`, {
        field: key,
        operator: op,
        value: raw,
        reason: 'invalid_list',
      });
    if (items.length > 500)
      throw invalid('At most 500 values in a list.', {
        field: key,
        operator: op,
        reason: 'list_too_long',
      });
    return {
      field: key,
      op,
      values: items.map((item) => parseValue(field, item) ?? throwError(badValue(item))),
    };
  }
  if (op === 'like' || op === 'ilike') {
    if (raw.length > MAX_VALUE_LENGTH || !isStorableText(raw)) throw badValue(raw);
    return { field: key, op, value: likePattern(raw) };
  }
  const value = parseValue(field, raw);
  if (value === undefined) throw badValue(raw);
  return { field: key, op, value };
}

/**
 * PostgREST's convention: `*` is the wildcard (URLs need no `%` escaping); `\*` is a literal
 * star; `%`, `_` and backslash escapes keep their LIKE meaning.
 */
export function likePattern(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      out += next === '*' ? '*' : `\\${next}`;
    } else {
      out += c === '*' ? '%' : c;
    }
  }
  return out;
}

/**
 * `(a,b,"c,d","say \"hi\"")`: items separated by commas; double quotes protect commas,
 * parentheses and spaces; backslash escapes a quote or a backslash inside quotes.
 */
export function parseList(raw: string): string[] | null {
  if (!raw.startsWith('(') || !raw.endsWith(')')) return null;
  const body = raw.slice(1, -1);
  if (body === '') return [];
  const items: string[] = [];
  let i = 0;
  for (;;) {
    let item = '';
    if (body[i] === '"') {
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === '\\' && i + 1 < body.length) i++;
        item += body[i++];
      }
      if (i >= body.length) return null; // unterminated quote
      i++;
    } else {
      while (i < body.length && body[i] !== ',') {
        if (body[i] === '"') return null;
        item += body[i++];
      }
    }
    items.push(item);
    if (i === body.length) return items;
    if (body[i] !== ',') return null;
    i++;
  }
}

function parseOrder(resource: Resource, raw: string | undefined): OrderTerm[] {
  if (raw === undefined || raw === '') return [{ field: 'id', direction: 'desc' }];
  const terms: OrderTerm[] = [];
  for (const part of raw.split(',')) {
    const [field = '', direction = 'asc', ...rest] = part.trim().split('.');
    const spec = fieldNamed(resource, field);
    if (!spec)
      throw invalid(`Unknown field ${field} in order.`, { field, reason: 'unknown_field' });
    if (!spec.sortable)
      throw invalid(`Field ${field} cannot be sorted on.`, { field, reason: 'not_sortable' });
    if ((direction !== 'asc' && direction !== 'desc') || rest.length)
      throw invalid(`Order ${part} must be <field>.asc or <field>.desc.`, {
        field,
        reason: 'invalid_direction',
      });
    if (terms.some((t) => t.field === field))
      throw invalid(`Field ${field} appears twice in order.`, { field, reason: 'repeated' });
    terms.push({ field, direction });
  }
  if (!terms.some((t) => t.field === 'id'))
    terms.push({ field: 'id', direction: terms[terms.length - 1]!.direction });
  return terms.slice(0, terms.findIndex((t) => t.field === 'id') + 1);
}

/**
 * The resource's own field of that name: a name from a URL such as `constructor` or `toString`
 * is unknown, not the object's inherited member.
 */
function fieldNamed(resource: Resource, name: string): Field | undefined {
  return Object.hasOwn(resource.allFields, name) ? resource.allFields[name] : undefined;
}

function parseValue(field: Field, raw: string): string | undefined {
  return raw.length > MAX_VALUE_LENGTH ? undefined : parseFieldValue(field, raw);
}

function invalid(message: string, params: Record<string, unknown>): ApiError {
  return new ApiError('filtre_invalide', message, params);
}

function throwError(error: ApiError): never {
  throw error;
}
