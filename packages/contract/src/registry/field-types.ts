import { z } from '@hono/zod-openapi';
import { whenValidSoFar } from '../schemas/common';
import {
  DECIMAL_PATTERN,
  type FieldValueParser,
  isDecimalNumber,
  parseBoolean,
  parseDate,
  parseDecimal,
  parseEnum,
  parseInteger,
  parseMoney,
  parseText,
  parseTimestamp,
  parseUuid,
} from './field-values';
import {
  type Field,
  type FieldType,
  type FilterOperator,
  type LinesField,
  USER,
  uuid,
} from './fields';
import { resourceNoun } from './prose';

/**
 * How a column's text (PostgreSQL's output, unparsed) becomes its JSON value, byte for byte
 * what `row_to_json` writes for it: `string` escaped as JSON; `quoted` text that never needs
 * escaping, put in quotes (uuids, decimals read `::text`, dates: their ISO text is their JSON);
 * `timestamp` ISO text to RFC 3339 (a `T`, the offset's minutes always written); `number`
 * written bare; `boolean` from `t` / `f`; `json` already JSON text (jsonb).
 */
export type JsonText = 'string' | 'quoted' | 'timestamp' | 'number' | 'boolean' | 'json';

/**
 * Everything the product knows about one field type, in one row: the column PostgreSQL keeps it
 * in, how a query parameter is cast, its zod schemas, its text form in URLs and cursors, the
 * list operators that apply, how its text reads in JSON and in a CSV cell, and a plausible value.
 * The DDL generator, the contract's schemas, the portal's read engine and writes, and the seed
 * all read this table: a new type is one row.
 */
export interface FieldTypeSpec<F extends Field = Field> {
  /** The column type (`NOT NULL` and checks are added from the field's options). */
  column(field: F): string;
  /** The cast of a query parameter holding a value of this type. */
  cast: string;
  /** Selected as text so the JSON keeps its exact value (numeric as a string). */
  selectAsText: boolean;
  /** How the portal writes the column's text (as selected) into a record's JSON. */
  jsonText: JsonText;
  /** CSV export: its cells are always quoted, its text may hold a comma, a quote or a line break. */
  csvQuoted: boolean;
  /**
   * CSV export: its text is someone's (typed or chosen), so a cell a spreadsheet would take for
   * a formula is neutralised. Not for values PostgreSQL writes from a typed value (numbers,
   * dates, ids): they start with `-` only as a negative number, which a prefix would turn into
   * text.
   */
  csvNeutralised: boolean;
  /** List operators (SPEC §6) that apply; none for types that cannot be filtered. */
  operators: readonly FilterOperator[];
  /** Whether `order=` and keyset pagination can use it. */
  sortable: boolean;
  /** Its text form (URL filters, cursors) → the parameter PostgreSQL gets; null: none. */
  parse: FieldValueParser | null;
  /** The zod schema of a value a client sends (before nullability). */
  input(field: F): z.ZodType;
  /** The zod schema of a value as returned. */
  output(field: F): z.ZodType;
  /** A validated value in its stored, canonical JSON form (decimals as strings, ids lowercase). */
  normalize(field: F, value: unknown): unknown;
  /** A plausible value, varied by `n`; the seed and generated tests start from it. */
  sample(field: F, n: number): unknown;
}

const ORDERED = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is'] as const;
const TEXT_OPERATORS = [...ORDERED, 'like', 'ilike'] as const;
const IDENTITY_OPERATORS = ['eq', 'neq', 'in', 'is'] as const;
const INT4 = 2_147_483_647;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const WORDS = ['Atlas', 'Boréal', 'Cèdre', 'Delta', 'Étoile', 'Fjord', 'Granit', 'Hélios'];

/** Input strings must also be values PostgreSQL stores exactly (field-values.ts decides). */
function storable(field: Field, schema: z.ZodType, message: string): z.ZodType {
  return (schema as z.ZodString).refine((value) => isFieldValue(field, value), {
    message,
    ...whenValidSoFar,
  });
}

const asIs = (_field: Field, value: unknown) => value;
const clamp = (value: number, min?: number, max?: number) =>
  Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min ?? Number.NEGATIVE_INFINITY, value));
const day = (n: number) => new Date(Date.UTC(2026, n % 12, 1 + ((n * 7) % 28)));
const NOT_STORABLE_TEXT = 'must not contain NUL characters or unpaired surrogates';

/** The field interface whose `type` can be T (TextField for both text and email...). */
type FieldOf<T extends FieldType> = Field extends infer F
  ? F extends { type: infer U }
    ? T extends U
      ? F
      : never
    : never
  : never;
type Specs = { [T in FieldType]: FieldTypeSpec<FieldOf<T>> };

/** The table. */
export const FIELD_TYPES: Specs = {
  text: {
    column: () => 'text',
    cast: 'text',
    selectAsText: false,
    jsonText: 'string',
    csvQuoted: true,
    csvNeutralised: true,
    operators: TEXT_OPERATORS,
    sortable: true,
    parse: parseText,
    input: (f) =>
      storable(
        f,
        f.required ? z.string().min(1).max(f.maxLength) : z.string().max(f.maxLength),
        NOT_STORABLE_TEXT,
      ),
    output: (f) => z.string().max(f.maxLength),
    normalize: asIs,
    sample: (f, n) =>
      (f.example !== undefined && n === 0 ? String(f.example) : `${WORDS[n % 8]} ${n + 1}`).slice(
        0,
        f.maxLength,
      ),
  },
  email: {
    column: () => 'text',
    cast: 'text',
    selectAsText: false,
    jsonText: 'string',
    csvQuoted: true,
    csvNeutralised: true,
    operators: TEXT_OPERATORS,
    sortable: true,
    parse: parseText,
    input: (f) => storable(f, z.email().max(f.maxLength), NOT_STORABLE_TEXT),
    output: (f) => z.email().max(f.maxLength),
    normalize: asIs,
    sample: (_f, n) => `contact.${n + 1}@example.test`,
  },
  enum: {
    column: () => 'text',
    cast: 'text',
    selectAsText: false,
    jsonText: 'string',
    csvQuoted: false,
    csvNeutralised: true,
    operators: IDENTITY_OPERATORS,
    sortable: true,
    parse: parseEnum,
    input: (f) => z.enum(f.values),
    output: (f) => z.enum(f.values),
    normalize: asIs,
    sample: (f, n) => f.values[n % f.values.length],
  },
  integer: {
    column: () => 'integer',
    cast: 'int4',
    selectAsText: false,
    jsonText: 'number',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ORDERED,
    sortable: true,
    parse: parseInteger,
    input: (f) =>
      z
        .number()
        .int()
        .min(f.min ?? -INT4 - 1)
        .max(f.max ?? INT4),
    output: (f) =>
      z
        .number()
        .int()
        .min(f.min ?? -INT4 - 1)
        .max(f.max ?? INT4),
    normalize: asIs,
    sample: (f, n) => clamp(1 + (n % 30), f.min, f.max),
  },
  money: {
    column: () => 'bigint',
    cast: 'int8',
    selectAsText: false,
    jsonText: 'number',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ORDERED,
    sortable: true,
    parse: parseMoney,
    input: (f) =>
      z
        .number()
        .int()
        .min(f.min ?? -MAX_SAFE)
        .max(f.max ?? MAX_SAFE),
    output: (f) =>
      z
        .number()
        .int()
        .min(f.min ?? -MAX_SAFE)
        .max(f.max ?? MAX_SAFE),
    normalize: asIs,
    sample: (f, n) => clamp(1_000 + ((n * 3_791) % 250_000), f.min, f.max),
  },
  decimal: {
    column: () => 'numeric(18,6)',
    cast: 'numeric',
    selectAsText: true,
    jsonText: 'quoted',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ORDERED,
    sortable: true,
    parse: parseDecimal,
    input: (f) => {
      const text = z
        .string()
        .regex(DECIMAL_PATTERN, 'a decimal with at most 12 digits before and 6 after the point');
      const number = z.number().refine(isDecimalNumber, 'a finite number below 10^12 in magnitude');
      return z.union([text, number]).refine((v) => inRange(Number(v), f.min, f.max), {
        message: `must be between ${f.min ?? '-∞'} and ${f.max ?? '∞'}`,
      });
    },
    output: () =>
      z
        .string()
        .regex(DECIMAL_PATTERN, 'a decimal with at most 12 digits before and 6 after the point'),
    normalize: (_f, value) => String(value),
    sample: (f, n) => String(clamp(1 + (n % 9) + 0.5, f.min, f.max)),
  },
  boolean: {
    column: () => 'boolean',
    cast: 'bool',
    selectAsText: false,
    jsonText: 'boolean',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ['eq', 'neq', 'is'],
    sortable: true,
    parse: parseBoolean,
    input: () => z.boolean(),
    output: () => z.boolean(),
    normalize: asIs,
    sample: (_f, n) => n % 3 !== 0,
  },
  date: {
    column: () => 'date',
    cast: 'date',
    selectAsText: false,
    jsonText: 'quoted',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ORDERED,
    sortable: true,
    parse: parseDate,
    input: (f) => storable(f, z.iso.date(), 'a calendar date between 0001-01-01 and 9999-12-31'),
    output: () => z.iso.date(),
    normalize: asIs,
    sample: (_f, n) => day(n).toISOString().slice(0, 10),
  },
  timestamp: {
    column: () => 'timestamptz',
    cast: 'timestamptz',
    selectAsText: false,
    jsonText: 'timestamp',
    csvQuoted: false,
    csvNeutralised: false,
    operators: ORDERED,
    sortable: true,
    parse: parseTimestamp,
    input: (f) =>
      storable(
        f,
        z.iso.datetime({ offset: true }),
        'an RFC 3339 date-time with an offset (at most ±15:59), at most 6 decimals of seconds, between years 0001 and 9999',
      ),
    output: () => z.iso.datetime({ offset: true }),
    normalize: asIs,
    sample: (_f, n) => new Date(day(n).getTime() + (n % 24) * 3_600_000).toISOString(),
  },
  uuid: {
    column: () => 'uuid',
    cast: 'uuid',
    selectAsText: false,
    jsonText: 'quoted',
    csvQuoted: false,
    csvNeutralised: false,
    operators: IDENTITY_OPERATORS,
    sortable: true,
    parse: parseUuid,
    input: () => z.uuid(),
    output: () => z.uuid(),
    normalize: (_f, value) => String(value).toLowerCase(),
    sample: (_f, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  },
  reference: {
    column: () => 'uuid',
    cast: 'uuid',
    selectAsText: false,
    jsonText: 'quoted',
    csvQuoted: false,
    csvNeutralised: false,
    operators: IDENTITY_OPERATORS,
    sortable: true,
    parse: parseUuid,
    input: () => z.uuid(),
    output: () => z.uuid(),
    normalize: (_f, value) => String(value).toLowerCase(),
    // A reference's sample needs existing records: the seed and the tests provide them.
    sample: () => undefined,
  },
  lines: {
    column: () => 'jsonb',
    cast: 'jsonb',
    selectAsText: false,
    jsonText: 'json',
    csvQuoted: true,
    csvNeutralised: true,
    operators: [],
    sortable: false,
    parse: null,
    input: (f) =>
      z
        .array(lineSchema(f, 'input') as z.ZodType<{ id?: string }>)
        .max(f.maxItems)
        .superRefine(uniqueLineIds),
    output: (f) => z.array(lineSchema(f, 'output')).max(f.maxItems),
    normalize: (f, value) =>
      (value as Record<string, unknown>[]).map((line) => normalizeLine(f, line)),
    sample: (f, n) =>
      Array.from({ length: 1 + (n % 3) }, (_, i) =>
        Object.fromEntries(
          Object.entries(f.fields).map(([name, spec]) => [name, sampleOf(spec, n + i)]),
        ),
      ),
  },
  json: {
    column: () => 'jsonb',
    cast: 'jsonb',
    selectAsText: false,
    jsonText: 'json',
    csvQuoted: true,
    csvNeutralised: true,
    operators: [],
    sortable: false,
    parse: null,
    input: () => z.record(z.string(), z.unknown()),
    output: () => z.record(z.string(), z.unknown()),
    normalize: asIs,
    sample: (_f, n) => ({ source: 'sample', n }),
  },
};

/** The row of a field's type. */
export function fieldType<F extends Field>(field: F): FieldTypeSpec<F> {
  return FIELD_TYPES[field.type] as unknown as FieldTypeSpec<F>;
}

/** A value as the database receives it: normalized, and JSON text for jsonb columns. */
export function toParameter(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const spec = fieldType(field);
  const normalized = spec.normalize(field, value);
  return spec.cast === 'jsonb' ? JSON.stringify(normalized) : normalized;
}

/** A field's value written as text (filter, cursor), checked and ready for PostgreSQL, or undefined. */
export function parseFieldValue(field: Field, raw: string): string | undefined {
  return fieldType(field).parse?.(raw, field);
}

/** Whether a string is a value of the field (for zod refinements). */
export function isFieldValue(field: Field, raw: string): boolean {
  return parseFieldValue(field, raw) !== undefined;
}

/** A plausible value of a field (undefined for references: they need existing records). */
export function sampleOf(field: Field, n: number): unknown {
  return fieldType(field).sample(field, n);
}

/**
 * A line's identity (SPEC §18): assigned by the server, kept across a PATCH that sends it back;
 * a line sent without it is a new line.
 */
const LINE_ID = uuid({
  description:
    "The line's identity, assigned by the server; send it back in a PATCH to keep the line (and what counts on it).",
});

function lineSchema(field: LinesField, mode: 'input' | 'output'): z.ZodType {
  const shape = Object.fromEntries(
    Object.entries(field.fields).map(([name, f]) => {
      const schema = mode === 'input' ? inputSchema(f) : outputSchema(f);
      return [name, f.required ? schema : schema.nullable().optional()];
    }),
  );
  // What the server sets on a line (its source line, its counts) may be sent back as read, and
  // is ignored: a line read from a document can be PATCHed back as it is.
  const readOnly = Object.fromEntries(
    Object.entries(field.readOnly ?? {}).map(([name, f]) => [
      name,
      mode === 'input'
        ? outputSchema(f)
            .nullable()
            .optional()
            .openapi({
              readOnly: true,
              description: `${f.description ?? ''} Set by the server; ignored when sent.`.trim(),
            })
        : outputSchema(f).nullable().optional(),
    ]),
  );
  if (mode === 'input')
    return z.object({ id: inputSchema(LINE_ID).optional(), ...shape, ...readOnly }).strict();
  return z.object({ id: outputSchema(LINE_ID), ...shape, ...readOnly });
}

/** Line ids are unique within a document. */
function uniqueLineIds(lines: { id?: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (!line.id) return;
    const id = line.id.toLowerCase();
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'another line has this id' });
    seen.add(id);
  });
}

function normalizeLine(field: LinesField, line: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof line.id === 'string') out.id = line.id.toLowerCase();
  for (const [name, spec] of Object.entries({ ...field.fields, ...field.readOnly })) {
    const value = line[name];
    if (value === undefined) continue;
    out[name] = value === null ? null : fieldType(spec).normalize(spec, value);
  }
  return out;
}

function inRange(value: number, min?: number, max?: number): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/** The zod schema of one field's value as sent by a client (its type's row, annotated). */
export function inputSchema(field: Field): z.ZodType {
  return annotate(field, fieldType(field).input(field));
}

/** The zod schema of one field's value as returned. */
export function outputSchema(field: Field): z.ZodType {
  return annotate(field, fieldType(field).output(field));
}

function annotate(field: Field, schema: z.ZodType): z.ZodType {
  const meta: Record<string, unknown> = {};
  if (field.description) meta.description = field.description;
  if (field.example !== undefined) meta.example = field.example;
  if (field.type === 'reference')
    meta.description =
      `${field.description ?? ''} ${field.resource === USER ? 'ID of a user who is a member of the tenant.' : `ID of ${resourceNoun(field.resource)} of the same tenant.`}`.trim();
  return Object.keys(meta).length ? schema.openapi(meta) : schema;
}
