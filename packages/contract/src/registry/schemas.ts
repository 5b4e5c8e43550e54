import { z } from '@hono/zod-openapi';
import type { Resource } from './define';
import { inputSchema, outputSchema } from './field-types';

type ResourceSchemas = ReturnType<typeof buildResourceSchemas>;
const built = new WeakMap<Resource, ResourceSchemas>();

/**
 * The schemas of one resource: the record, its create body and its patch body (what list and get
 * answer is in read-schemas.ts). Memoized: the routes and the webhook payloads refer to the same
 * record component.
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
  return { record, create, update };
}
