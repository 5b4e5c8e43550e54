import { z } from '@hono/zod-openapi';

/**
 * The history of a record (SPEC §12): one schema for every resource. The fields of `changes`
 * are the resource's own, with the types of its record schema; the sdk's `history()` types
 * them from that schema, so the document does not repeat every resource's fields once more.
 */
export const HistoryActorSchema = z
  .object({
    type: z.enum(['user', 'api_key']),
    id: z.uuid(),
    name: z.string().nullable().openapi({
      description:
        'The user’s name, or the API key’s, as they are now; null once the user or key is deleted.',
    }),
  })
  .openapi('HistoryActor', {
    description: 'Who made the change: a person’s session, or an API key (not its holder).',
  });

export const HistoryEntrySchema = z
  .object({
    version: z.number().int().min(1).openapi({
      description:
        'The record’s version after this change (its ETag); a deletion is one past the last.',
    }),
    at: z.iso.datetime({ offset: true }),
    actor: HistoryActorSchema,
    action: z.string().openapi({
      description: '`create`, `update`, `delete`, or the lifecycle action’s name.',
      example: 'confirm',
    }),
    // `items: {}` beside the tuple's `prefixItems`: what OpenAPI 3.0 readers and linters
    // (Spectral's array-items) look for; maxItems keeps it a pair.
    changes: z
      .record(
        z.string(),
        z.tuple([z.unknown(), z.unknown()]).openapi({ items: {}, minItems: 2, maxItems: 2 }),
      )
      .openapi({
        description:
          '`{field: [old, new]}` for each field the change set or changed (values as the record shows them, `null` for none; line items are one field). A creation lists every field it set, a deletion every field the record had.',
        example: { status: ['brouillon', 'confirme'] },
      }),
  })
  .openapi('HistoryEntry');

export const HistoryPageSchema = z
  .object({
    data: z.array(HistoryEntrySchema),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for older versions; null on the last page.' }),
  })
  .openapi('HistoryPage');
