/** The types a business field can have; each maps to a column type, a zod schema and filter operators. */
export type FieldType =
  | 'text'
  | 'email'
  | 'enum'
  | 'integer'
  | 'money'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'uuid'
  | 'reference'
  | 'lines'
  | 'json';

/**
 * What a text value is, for the demo seed's fake data (names, addresses, codes that read as
 * real): the seed maps each kind to a fake-data generator. Fields without one get a value from
 * their name (`city`, `phone`, …) or their type.
 */
export const FAKE_KINDS = [
  'company',
  'person_name',
  'first_name',
  'last_name',
  'job_title',
  'department',
  'phone',
  'street',
  'city',
  'postal_code',
  'region',
  'country_code',
  'currency_code',
  'iban',
  'bic',
  'vat_number',
  'url',
  'sku',
  'barcode',
  'serial_number',
  'product_name',
  'code',
  'word',
  'words',
  'sentence',
  'paragraph',
  'color',
] as const;
export type FakeKind = (typeof FAKE_KINDS)[number];

interface FieldOptions {
  /** Must be given on create (and may not be set to null). */
  required?: boolean;
  /** Usable as `<field>=<op>.<value>` in list queries. */
  filterable?: boolean;
  /** Usable in `order=`; only for required fields (keyset pagination needs non-null keys). */
  sortable?: boolean;
  description?: string;
  example?: unknown;
  /** What the demo seed fills it with (see FAKE_KINDS). */
  fake?: FakeKind;
}

export interface TextField extends FieldOptions {
  type: 'text' | 'email';
  maxLength: number;
}
export interface EnumField extends FieldOptions {
  type: 'enum';
  values: readonly [string, ...string[]];
}
export interface NumberField extends FieldOptions {
  type: 'integer' | 'money' | 'decimal';
  min?: number;
  max?: number;
}
export interface SimpleField extends FieldOptions {
  type: 'boolean' | 'date' | 'timestamp' | 'json' | 'uuid';
}
export interface ReferenceField extends FieldOptions {
  type: 'reference';
  /**
   * Name of the referenced resource (same tenant, enforced by a composite foreign key), or
   * `USER`: a platform user who is a member of the record's tenant.
   */
  resource: string;
}

/** The target of `reference(USER)`: a user who is a member of the record's tenant. */
export const USER = 'user';
export interface LinesField extends FieldOptions {
  type: 'lines';
  /** The fields of one line. */
  fields: Record<string, Field>;
  /**
   * Fields of a line the server sets (SPEC §18): the source line it was made from
   * (`source_line_id`), what the line's targets counted (`delivered_quantity`…). Returned, never
   * accepted; a line's server-assigned `id` is besides them.
   */
  readOnly?: Record<string, Field>;
  maxItems: number;
}

export type Field = TextField | EnumField | NumberField | SimpleField | ReferenceField | LinesField;

/** Field builders: `text({ required: true, filterable: true })`. */
export const text = (o: FieldOptions & { maxLength?: number } = {}): TextField => ({
  type: 'text',
  maxLength: 500,
  ...o,
});
export const email = (o: FieldOptions = {}): TextField => ({ type: 'email', maxLength: 254, ...o });
export const enumOf = (
  values: readonly [string, ...string[]],
  o: FieldOptions = {},
): EnumField => ({ type: 'enum', values, ...o });
export const integer = (o: FieldOptions & { min?: number; max?: number } = {}): NumberField => ({
  type: 'integer',
  ...o,
});
/** An amount in minor units (cents), as an integer. */
export const money = (o: FieldOptions & { min?: number } = {}): NumberField => ({
  type: 'money',
  ...o,
});
/** An exact decimal, sent and returned as a string (`"12.5"`). */
export const decimal = (o: FieldOptions & { min?: number; max?: number } = {}): NumberField => ({
  type: 'decimal',
  ...o,
});
export const boolean = (o: FieldOptions = {}): SimpleField => ({ type: 'boolean', ...o });
export const date = (o: FieldOptions = {}): SimpleField => ({ type: 'date', ...o });
export const timestamp = (o: FieldOptions = {}): SimpleField => ({ type: 'timestamp', ...o });
export const uuid = (o: FieldOptions = {}): SimpleField => ({ type: 'uuid', ...o });
export const json = (o: FieldOptions = {}): SimpleField => ({ type: 'json', ...o });
export const reference = (resource: string, o: FieldOptions = {}): ReferenceField => ({
  type: 'reference',
  resource,
  ...o,
});
export const lines = (
  fields: Record<string, Field>,
  o: FieldOptions & { maxItems?: number; readOnly?: Record<string, Field> } = {},
): LinesField => ({
  type: 'lines',
  fields,
  maxItems: 500,
  ...o,
});

/** List-query operators (SPEC §6). */
export const FILTER_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'in',
  'is',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
