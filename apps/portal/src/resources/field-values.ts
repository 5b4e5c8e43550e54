import { type Field, isUuid } from '@erp/contract';

const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** The PostgreSQL type a field's parameters are cast to. */
export function pgType(field: Field): string {
  switch (field.type) {
    case 'integer':
      return 'int4';
    case 'money':
      return 'int8';
    case 'decimal':
      return 'numeric';
    case 'boolean':
      return 'bool';
    case 'date':
      return 'date';
    case 'timestamp':
      return 'timestamptz';
    case 'uuid':
    case 'reference':
      return 'uuid';
    case 'lines':
    case 'json':
      return 'jsonb';
    default:
      return 'text';
  }
}

/**
 * Converts a value written in a URL (filter or cursor) to a query parameter, or returns
 * undefined when it is not a value of the field's type.
 */
export function parseUrlValue(field: Field, raw: string): string | undefined {
  switch (field.type) {
    case 'integer':
      return /^-?\d{1,10}$/.test(raw) && Math.abs(Number(raw)) <= 2_147_483_647 ? raw : undefined;
    case 'money':
      return /^-?\d{1,16}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? raw : undefined;
    case 'decimal':
      return DECIMAL.test(raw) ? raw : undefined;
    case 'boolean':
      return raw === 'true' || raw === 'false' ? raw : undefined;
    case 'date':
      return DATE.test(raw) && isRealDate(raw) ? raw : undefined;
    case 'timestamp':
      return TIMESTAMP.test(raw) && !Number.isNaN(Date.parse(raw.replace(' ', 'T')))
        ? raw
        : undefined;
    case 'uuid':
    case 'reference':
      return isUuid(raw) ? raw.toLowerCase() : undefined;
    case 'enum':
      return field.values.includes(raw) ? raw : undefined;
    case 'text':
    case 'email':
      return raw.length <= 1000 && !raw.includes('\u0000') ? raw : undefined;
    default:
      return undefined;
  }
}

function isRealDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}
