import { z } from '@hono/zod-openapi';
import type { Resource } from './define';
import { type Embedding, embeddings, type ResourceLookup } from './embeds';
import { resourceNoun } from './prose';
import { resourceSchemas } from './schemas';

/** The formats of `GET /{path}/export`. */
export const EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type each export format is answered in. */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
};

/**
 * A comma-separated list of names, documented as an array of the allowed names (the SPEC's
 * `select=a,b`: form style, not exploded). Validated by the portal, which names the unknown
 * ones; a repeated parameter adds its names (the sdk sends arrays so).
 */
function nameList(names: readonly string[], description: string) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({
      param: { style: 'form', explode: false, description },
      type: 'array',
      items: { type: 'string', enum: [...names] },
    } as Record<string, unknown>);
}

/** `select=`: the fields of the record to return (`id` always comes). */
export function selectQuery(resource: Resource) {
  return nameList(
    Object.keys(resource.allFields),
    'Only these fields (comma-separated); `id` always comes. Unknown names: `requete_invalide`.',
  );
}

/** `embed=`, or nothing when the resource refers to no other record. */
export function embedQuery(resource: Resource, registry: ResourceLookup) {
  const list = embeddings(resource, registry);
  if (list.length === 0) return undefined;
  return nameList(
    list.map((e) => e.name),
    `The referenced record inline under the reference's name without \`_id\` (one level; comma-separated). Needs the read right on its module, else \`acces_refuse\`: ${list.map((e) => `\`${e.name}\` (\`${e.target.module}:read\`)`).join(', ')}.`,
  );
}

type ReadSchemas = ReturnType<typeof buildReadSchemas>;
const built = new WeakMap<Resource, ReadSchemas>();

/**
 * What list and get answer: the record, plus with `embed=` each embedded record under its
 * name. Memoized per resource (a resource belongs to one registry).
 */
export function readSchemas(resource: Resource, registry: ResourceLookup): ReadSchemas {
  let schemas = built.get(resource);
  if (!schemas) {
    schemas = buildReadSchemas(resource, registry);
    built.set(resource, schemas);
  }
  return schemas;
}

function buildReadSchemas(resource: Resource, registry: ResourceLookup) {
  const { record } = resourceSchemas(resource);
  const list = embeddings(resource, registry);
  const read = list.length ? withEmbeds(resource, record, list) : record;
  const page = z
    .object({
      data: z.array(read),
      next_cursor: z
        .string()
        .nullable()
        .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
      total: z.number().int().min(0).optional().openapi({
        description: 'Every row matching the filters (all pages), with `Prefer: count=exact` only.',
      }),
    })
    .openapi(`${resource.schemaName}List`);
  return { read, list: page };
}

/**
 * The record with its embeddable references as optional keys. A name that replaces a field
 * (see `Embedding.replaces`) is that field's value or the record.
 */
function withEmbeds(resource: Resource, record: z.ZodObject, list: Embedding[]) {
  const embedded = (e: Embedding) => {
    const target = resourceSchemas(e.target).record;
    // A union with null, not `.nullable()`: that would make the shared component nullable.
    return e.required ? target : z.union([target, z.null()]);
  };
  const replaced = list.filter((e) => e.replaces);
  const added = Object.fromEntries(
    list
      .filter((e) => !e.replaces)
      .map((e) => [
        e.name,
        embedded(e)
          .optional()
          .openapi({ description: `With \`embed=${e.name}\`: the ${e.target.name} record.` }),
      ]),
  );
  const base = replaced.length
    ? record
        .omit(Object.fromEntries(replaced.map((e) => [e.name, true])) as Record<string, true>)
        .extend(
          Object.fromEntries(
            replaced.map((e) => [
              e.name,
              z.union([record.shape[e.name] as z.ZodType, embedded(e)]).openapi({
                description: `Its text, or with \`embed=${e.name}\` the ${e.target.name} record.`,
              }),
            ]),
          ),
        )
    : record;
  return base.extend(added).openapi(`${resource.schemaName}WithEmbeds`, {
    description: `${resourceNoun(resource.name, true)} as list and get return it; \`select=\` leaves out the fields not named (\`id\` stays).`,
  });
}
