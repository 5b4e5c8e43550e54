import type { Field } from '@erp/contract';

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
