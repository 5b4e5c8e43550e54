import { z } from '@hono/zod-openapi';
import { whenValidSoFar } from '../schemas/common';
import type { Resource } from './define';
import { DECIMAL_PATTERN, isDecimalNumber, isFieldValue } from './field-values';
import { type Field, USER } from './fields';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** What each text-like type's refinement says when a value is of the right shape but not storable. */
const NOT_STORABLE: Partial<Record<Field['type'], string>> = {
  text: 'must not contain NUL characters or unpaired surrogates',
  email: 'must not contain NUL characters or unpaired surrogates',
  date: 'a calendar date between 0001-01-01 and 9999-12-31',
  timestamp:
    'an RFC 3339 date-time with an offset (at most ±15:59), at most 6 decimals of seconds, between years 0001 and 9999',
};

/** The zod schema of one field's value as sent by a client. */
export function inputSchema(field: Field): z.ZodType {
  return annotate(field, storable(field, baseSchema(field, 'input')));
}

/** Input strings must also be values PostgreSQL stores exactly (field-values.ts decides). */
function storable(field: Field, schema: z.ZodType): z.ZodType {
  const message = NOT_STORABLE[field.type];
  if (!message) return schema;
  return (schema as z.ZodString).refine((value) => isFieldValue(field, value), {
    message,
    ...whenValidSoFar,
  });
}

/** The zod schema of one field's value as returned. */
export function outputSchema(field: Field): z.ZodType {
  return annotate(field, baseSchema(field, 'output'));
}

function baseSchema(field: Field, mode: 'input' | 'output'): z.ZodType {
  switch (field.type) {
    case 'text':
      return mode === 'input' && field.required
        ? z.string().min(1).max(field.maxLength)
        : z.string().max(field.maxLength);
    case 'email':
      return z.email().max(field.maxLength);
    case 'enum':
      return z.enum(field.values);
    case 'integer':
      return z
        .number()
        .int()
        .min(field.min ?? -2_147_483_648)
        .max(field.max ?? 2_147_483_647);
    case 'money':
      return z
        .number()
        .int()
        .min(field.min ?? -MAX_SAFE)
        .max(MAX_SAFE);
    case 'decimal': {
      const text = z
        .string()
        .regex(DECIMAL_PATTERN, 'a decimal with at most 12 digits before and 6 after the point');
      if (mode === 'output') return text;
      const number = z.number().refine(isDecimalNumber, 'a finite number below 10^12 in magnitude');
      return z.union([text, number]).refine((v) => inRange(Number(v), field.min, field.max), {
        message: `must be between ${field.min ?? '-∞'} and ${field.max ?? '∞'}`,
      });
    }
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.iso.date();
    case 'timestamp':
      return z.iso.datetime({ offset: true });
    case 'uuid':
    case 'reference':
      return z.uuid();
    case 'json':
      return z.record(z.string(), z.unknown());
    case 'lines': {
      const shape = Object.fromEntries(
        Object.entries(field.fields).map(([name, f]) => {
          const schema = mode === 'input' ? inputSchema(f) : outputSchema(f);
          return [name, f.required ? schema : schema.nullable().optional()];
        }),
      );
      const line = mode === 'input' ? z.object(shape).strict() : z.object(shape);
      return z.array(line).max(field.maxItems);
    }
  }
}

function inRange(value: number, min?: number, max?: number): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

function annotate(field: Field, schema: z.ZodType): z.ZodType {
  const meta: Record<string, unknown> = {};
  if (field.description) meta.description = field.description;
  if (field.example !== undefined) meta.example = field.example;
  if (field.type === 'reference')
    meta.description =
      `${field.description ?? ''} ${field.resource === USER ? 'ID of a user who is a member of the tenant.' : `ID of a ${field.resource} of the same tenant.`}`.trim();
  return Object.keys(meta).length ? schema.openapi(meta) : schema;
}

type ResourceSchemas = ReturnType<typeof buildResourceSchemas>;
const built = new WeakMap<Resource, ResourceSchemas>();

/**
 * The schemas of one resource: the record, its create body and its patch body. Memoized: the
 * routes and the webhook payloads refer to the same record component.
 */
export function resourceSchemas(resource: Resource): ResourceSchemas {
  let schemas = built.get(resource);
  if (!schemas) {
    schemas = buildResourceSchemas(resource);
    built.set(resource, schemas);
  }
  return schemas;
}

function buildResourceSchemas(resource: Resource) {
  const record = z
    .object(
      Object.fromEntries(
        Object.entries(resource.allFields).map(([name, f]) => [
          name,
          f.required ? outputSchema(f) : outputSchema(f).nullable(),
        ]),
      ),
    )
    .openapi(resource.schemaName, { description: resource.description });
  const create = z
    .object(
      Object.fromEntries(
        Object.entries(resource.fields).map(([name, f]) => [
          name,
          f.required ? inputSchema(f) : inputSchema(f).nullable().optional(),
        ]),
      ),
    )
    .strict()
    .openapi(`${resource.schemaName}Create`);
  const update = z
    .object(
      Object.fromEntries(
        Object.entries(resource.fields).map(([name, f]) => [
          name,
          f.required ? inputSchema(f).optional() : inputSchema(f).nullable().optional(),
        ]),
      ),
    )
    .strict()
    .openapi(`${resource.schemaName}Update`);
  const list = z
    .object({
      data: z.array(record),
      next_cursor: z
        .string()
        .nullable()
        .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    })
    .openapi(`${resource.schemaName}List`);
  return { record, create, update, list };
}
