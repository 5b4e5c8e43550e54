import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import type { Resource } from './define';
import type { ResourceLookup } from './embeds';
import { EXPORT_FORMATS, EXPORT_MEDIA_TYPES, embedQuery, selectQuery } from './read-schemas';

/** `select` and `embed` (when the resource has references), for list and get. */
export function readQuery(resource: Resource, registry: ResourceLookup) {
  const embed = embedQuery(resource, registry);
  return { select: selectQuery(resource), ...(embed ? { embed } : {}) };
}

/**
 * `GET /{path}/export?format=ndjson|csv`: every row the list's filters and order select,
 * streamed. The list's parameters but the page's: no `page_size` nor `cursor`, and no `embed`.
 */
export function exportRoute(
  resource: Resource,
  options: Pick<RouteConfig, 'tags' | 'security' | 'method' | 'path' | 'operationId'> & {
    headers: z.ZodObject;
    filters: Record<string, z.ZodType>;
    errors: ErrorCode[];
  },
) {
  const { headers, filters, errors, ...common } = options;
  const label = resource.path.replace(/-/g, ' ');
  const file = (format: string) => `${resource.path}.${format}`;
  return createRoute({
    ...common,
    summary: `Export ${label}`,
    description: `Needs \`${resource.module}:read\`. Every ${resource.name.replace(/_/g, ' ')} the filters match, in the list's order (newest first unless \`order\` says otherwise), streamed from one snapshot of the database. Bad parameters are refused before anything is sent; a failure once the rows flow ends the response before its end.`,
    request: {
      headers,
      query: z.object({
        format: z.enum(EXPORT_FORMATS).openapi({
          param: {
            description:
              '`ndjson`: one record per line, as the list returns it. `csv`: a header row of field names, then one row per record (RFC 4180: CRLF, fields quoted where needed; lines and JSON fields as JSON text; null as an empty cell, an empty text as `""`). In CSV, a text cell (text, e-mail, enum, lines, JSON) starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `\'`, so a spreadsheet shows it rather than running it as a formula (OWASP CSV injection); numbers, dates, timestamps, booleans and ids are never prefixed (`-1250` stays a number). The JSON answers and `ndjson` keep the stored value.',
          },
        }),
        select: selectQuery(resource),
        ...filters,
      }),
    },
    responses: {
      200: {
        description: `The rows, as an attachment (\`${file('ndjson')}\` or \`${file('csv')}\`).`,
        headers: {
          'Content-Disposition': {
            description: `\`attachment; filename="${file('<format>')}"\``,
            schema: { type: 'string' },
          },
        },
        content: {
          [EXPORT_MEDIA_TYPES.ndjson]: {
            schema: z.string().openapi({ description: 'One JSON record per line.' }),
          },
          [EXPORT_MEDIA_TYPES.csv]: {
            schema: z.string().openapi({
              description:
                "RFC 4180 CSV with a header row; text cells that would start a spreadsheet formula are prefixed with `'`.",
            }),
          },
        },
      },
      ...errorResponses(...errors, 'filtre_invalide'),
    },
  });
}
