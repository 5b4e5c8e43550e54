import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { CALLER_ERRORS, jsonResponse } from '../routes/helpers';
import { TimestampSchema, UuidSchema } from '../schemas/common';
import { changeEventTypes, recordChanges } from './change-events';
import type { Resource } from './define';
import { EventSequenceSchema } from './event-payloads';
import { tenantHeader, tenantIdHeader } from './parameters';
import { resourceNoun } from './prose';
import { RESOURCE_SECURITY } from './routes';
import { resourceSchemas } from './schemas';

/** The feed's path (SPEC §12). */
export const EVENT_FEED_PATH = '/api/v1/events';
/** Events per page: by default, and at most. */
export const FEED_PAGE_SIZE = { default: 100, max: 1000 } as const;
/** Events retained at least this long (SPEC §12); older ones are deleted by the worker. */
export const EVENT_RETENTION_DAYS = 30;

const SEQUENCE_TEXT = /^(0|[1-9][0-9]{0,17})$/;

/** Every event type the feed of these resources serves, each once. */
export function feedEventTypes(resources: readonly Resource[]): Set<string> {
  return new Set(resources.flatMap((r) => r.feedEventNames));
}

const queries = new WeakMap<readonly Resource[], z.ZodObject>();

/**
 * The feed's query parameters. `type` stays a string in the document (the accepted names are
 * the `type` enums of `FeedEvent`); each unknown name is an issue of its own.
 */
export function eventFeedQuerySchema(resources: readonly Resource[]): z.ZodObject {
  let schema = queries.get(resources);
  if (schema) return schema;
  const known = feedEventTypes(resources);
  schema = z.object({
    after: z
      .string()
      .regex(SEQUENCE_TEXT, 'a sequence: digits, as `next_cursor` or an event’s `sequence`')
      .optional()
      .openapi({
        description:
          'Events after this position: a previous page’s `next_cursor`, or the `sequence` of the last event you handled (a webhook’s included). Omitted: from the oldest event kept.',
        example: '1042',
      }),
    type: z
      .string()
      .max(20_000)
      .superRefine((value, ctx) => {
        value.split(',').forEach((name, i) => {
          if (!known.has(name))
            ctx.addIssue({
              code: 'custom',
              message: `unknown event type "${name}"`,
              params: { index: i },
            });
        });
      })
      .optional()
      .openapi({
        description:
          'Only these event types, comma-separated (`<resource>.created|updated|deleted|<action>` and SPEC §7’s names).',
        example: 'sales_order.created,sales_order.status_changed',
      }),
    page_size: z.coerce
      .number()
      .int()
      .min(1)
      .max(FEED_PAGE_SIZE.max)
      .optional()
      .openapi({
        description: `Events per page (default ${FEED_PAGE_SIZE.default}, max ${FEED_PAGE_SIZE.max}).`,
      }),
  });
  queries.set(resources, schema);
  return schema;
}

/** The feed's headers: the tenant, as on every business route. */
export const eventFeedHeaders = z.object({
  'x-tenant-id': tenantIdHeader,
  'x-tenant': tenantHeader,
});

/** The common fields of a feed item: a webhook body without `delivery_id`, plus `sequence`. */
function feedItem(name: string, types: string[], data: z.ZodObject, description: string) {
  return z
    .object({
      // Described once, on EventFeedPage: 300 schemas repeat these fields.
      id: UuidSchema,
      sequence: EventSequenceSchema,
      type: z.enum(types as [string, ...string[]]),
      created_at: TimestampSchema,
      tenant_id: UuidSchema,
      data,
    })
    .openapi(name, { description });
}

/**
 * One item schema per resource and kind of change: `<Schema>FeedEvent` (created, updated,
 * deleted: `data.object`, the record; after a delete, as it was) and `<Schema>FeedActionEvent`
 * (lifecycle actions: `data.previous_status` and `data.action` too).
 */
function feedItems(resource: Resource): z.ZodObject[] {
  const record = resourceSchemas(resource).record;
  const changes = recordChanges(resource);
  const typesOf = (actions: boolean) => [
    ...new Set(
      changes
        .filter((c) => (c.kind === 'action') === actions)
        .flatMap((c) => changeEventTypes(resource, c)),
    ),
  ];
  const items = [
    feedItem(
      `${resource.schemaName}FeedEvent`,
      typesOf(false),
      z.object({ object: record }),
      `${resourceNoun(resource.name, true)} was created, updated or deleted (\`data.object\`: the record; after a delete, as it was).`,
    ),
  ];
  const actions = Object.keys(resource.lifecycle?.actions ?? {});
  if (actions.length > 0) {
    items.push(
      feedItem(
        `${resource.schemaName}FeedActionEvent`,
        typesOf(true),
        z.object({
          object: record,
          previous_status: z.enum(resource.states as [string, ...string[]]),
          action: z.enum(actions as [string, ...string[]]),
        }),
        `A lifecycle action on ${resourceNoun(resource.name)} (\`data.previous_status\` → \`data.object.status\`).`,
      ),
    );
  }
  return items;
}

const routes = new WeakMap<readonly Resource[], RouteConfig>();

/** `GET /api/v1/events` (SPEC §12), with one item schema per resource. Memoized. */
export function eventFeedRoute(resources: readonly Resource[]): RouteConfig {
  let route = routes.get(resources);
  if (route) return route;
  const items = resources.flatMap(feedItems);
  const page = z
    .object({
      data: z
        .array(z.union(items as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]))
        .openapi({
          description:
            'Oldest first, by `sequence`. Each event is the body of its webhook deliveries without `delivery_id`: `id` (the same in every delivery), `sequence`, `type`, `created_at` (when the change was recorded), `tenant_id`, `data`.',
        }),
      next_cursor: z.string().openapi({
        description:
          'Never null: pass it as `after` for the next page, or, on the last page (even an empty one), to poll for what comes next. It is the `sequence` of the last event served or skipped.',
        example: '1142',
      }),
      has_more: z.boolean().openapi({
        description: 'Whether events after `next_cursor` exist now (false: caught up, poll later).',
      }),
    })
    .openapi('EventFeedPage');
  route = createRoute({
    method: 'get',
    path: EVENT_FEED_PATH,
    operationId: 'listEvents',
    tags: ['Events'],
    security: RESOURCE_SECURITY,
    summary: 'Every business event of the tenant, oldest first',
    description: `Every change of every record of the tenant (creations, updates, deletions, lifecycle actions, and SPEC §7's catalogue events) with the body a webhook delivery carries (without \`delivery_id\`) plus its \`sequence\`. Following \`next_cursor\` never misses an event nor sees one twice, also while transactions commit concurrently: an event is numbered once its transaction has committed, after every number already served. Needs \`<module>:read\` for the events of a module, or \`webhooks\` for all; events the caller may not read are skipped (their sequences are then missing from the pages, which is not a gap). Events are kept at least ${EVENT_RETENTION_DAYS} days: a cursor older than that is refused (\`requete_invalide\`, an issue on \`after\` with code \`cursor_expired\`): events after it are gone.`,
    request: { headers: eventFeedHeaders, query: eventFeedQuerySchema(resources) },
    responses: {
      200: jsonResponse(page, 'A page of events.', true),
      ...errorResponses(...CALLER_ERRORS, 'acces_refuse', 'module_non_souscrit'),
    },
  });
  routes.set(resources, route);
  return route;
}
