import {
  ApiError,
  EVENT_FEED_PATH,
  eventFeedHeaders,
  eventFeedQuerySchema,
  FEED_PAGE_SIZE,
  RESOURCE_SECURITY,
  type Resource,
} from '@erp/contract';
import type { Hono } from 'hono';
import { requireRight, securityMiddleware } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, type Caller, callerOf, tenantOf } from '../http/context';
import { validateLazily } from '../resources';
import { readFeed } from './feed';

/**
 * `GET /api/v1/events` (SPEC §12): the tenant's feed. A plain Hono route validated lazily,
 * like the resources' (its contract route carries a schema per resource, built only for the
 * document).
 */
export function registerEventFeedRoutes(
  app: Hono<AppEnv>,
  deps: Deps,
  resources: readonly Resource[],
): void {
  const resourceOfType = new Map<string, Resource>();
  for (const resource of resources)
    for (const type of resource.feedEventNames) resourceOfType.set(type, resource);
  app.get(
    EVENT_FEED_PATH,
    securityMiddleware(RESOURCE_SECURITY, deps)!,
    validateLazily(() => ({
      method: 'get',
      path: EVENT_FEED_PATH,
      request: { headers: eventFeedHeaders, query: eventFeedQuerySchema(resources) },
      responses: {},
    })),
    async function listEvents(c) {
      const query = (
        c.req.valid as (t: 'query') => { after?: string; type?: string; page_size?: number }
      )('query');
      const caller = callerOf(c);
      const tenant = tenantOf(caller);
      const types = query.type ? [...new Set(query.type.split(','))] : null;
      const readable = readableResources(caller, tenant.modules, resources);
      // A type named explicitly needs its module's right: refused, never answered empty.
      if (types && readable !== null) {
        for (const type of types) {
          const right = `${resourceOfType.get(type)!.module}:read`;
          requireRight({ rights: caller.rights, modules: tenant.modules }, right);
        }
      }
      const page = await deps.tenantDb.run(tenant.id, (client) =>
        readFeed(client, tenant.id, {
          after: query.after === undefined ? null : BigInt(query.after),
          types,
          resources: types ? null : readable,
          pageSize: query.page_size ?? FEED_PAGE_SIZE.default,
        }),
      );
      c.header('Content-Type', 'application/json; charset=utf-8');
      return c.body(page.json, 200);
    },
  );
}

/**
 * The resources whose events the caller may read: null (all) with the right `webhooks`, else
 * those of the modules it may read. Refused when that is none.
 */
function readableResources(
  caller: Caller,
  modules: readonly string[],
  resources: readonly Resource[],
): string[] | null {
  if (caller.rights.has('webhooks')) return null;
  const names = resources
    .filter((r) => modules.includes(r.module) && caller.rights.has(`${r.module}:read`))
    .map((r) => r.name);
  if (names.length === 0) {
    throw new ApiError(
      'acces_refuse',
      'Reading the event feed requires the right webhooks, or read on a module.',
      { required: 'webhooks' },
    );
  }
  return names;
}
