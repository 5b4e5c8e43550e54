import {
  type CatalogueEvent,
  catalogue,
  type EventName,
  eventCatalogue,
  routes,
  SECRET_OVERLAP_MAX_HOURS,
} from '@erp/contract';
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { auditSourceOf } from '../audit';
import { requireRight, secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf, tenantOf } from '../http/context';
import { getDelivery, listDeliveries } from './deliveries';
import { recoverDeliveries, retryDelivery, sendTestDelivery } from './replays';
import { rotateSecret } from './secret-rotation';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  updateSubscription,
} from './subscriptions';

/** Rights are checked before the body is validated: a caller without the right learns nothing. */
const requireWebhooksRight: MiddlewareHandler<AppEnv> = async function checkWebhooksRight(c, next) {
  const caller = callerOf(c);
  requireRight({ rights: caller.rights, modules: tenantOf(caller).modules }, 'webhooks');
  await next();
};

function withRight<R extends RouteConfig>(route: R, deps: Deps): R {
  const secured = secure(route, deps);
  return { ...secured, middleware: [secured.middleware, requireWebhooksRight].flat() } as R;
}

/** Settings → Webhooks: subscriptions, secrets, test deliveries and the delivery log. */
export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const tenantId = (c: Context<AppEnv>) => tenantOf(callerOf(c)).id;
  const source = (c: Context<AppEnv>) => auditSourceOf(c, deps.env.TRUST_PROXY);
  // The catalogue test holds it to SPEC §7's names.
  const events = eventCatalogue(catalogue) as (CatalogueEvent & { name: EventName })[];

  // Before the `/{id}` routes: Hono matches in registration order, and `events` is no id.
  for (const route of [routes.listWebhookEvents, routes.listWebhookEventsAlias]) {
    app.openapi(withRight(route, deps), (c) => c.json({ data: events }, 200));
  }

  app.openapi(withRight(routes.listWebhookSubscriptions, deps), async (c) =>
    c.json({ data: await listSubscriptions(deps, tenantId(c)) }, 200),
  );
  app.openapi(withRight(routes.createWebhookSubscription, deps), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await createSubscription(deps, tenantId(c), c.req.valid('json'), source(c)), 201);
  });
  app.openapi(withRight(routes.getWebhookSubscription, deps), async (c) =>
    c.json(await getSubscription(deps, tenantId(c), c.req.valid('param').id), 200),
  );
  app.openapi(withRight(routes.updateWebhookSubscription, deps), async (c) =>
    c.json(
      await updateSubscription(
        deps,
        tenantId(c),
        c.req.valid('param').id,
        c.req.valid('json'),
        source(c),
      ),
      200,
    ),
  );
  app.openapi(withRight(routes.deleteWebhookSubscription, deps), async (c) => {
    await deleteSubscription(deps, tenantId(c), c.req.valid('param').id, source(c));
    return c.body(null, 204);
  });
  app.openapi(withRight(routes.rotateWebhookSecret, deps), async (c) => {
    const hours = c.req.valid('json').expire_previous_in_hours ?? SECRET_OVERLAP_MAX_HOURS;
    c.header('Cache-Control', 'no-store');
    return c.json(
      await rotateSecret(deps, tenantId(c), c.req.valid('param').id, hours, source(c)),
      200,
    );
  });
  app.openapi(withRight(routes.testWebhookSubscription, deps), async (c) =>
    c.json(await sendTestDelivery(deps, tenantId(c), c.req.valid('param').id), 202),
  );

  app.openapi(withRight(routes.listWebhookDeliveries, deps), async (c) =>
    c.json(
      await listDeliveries(deps, tenantId(c), c.req.valid('param').id, c.req.valid('query')),
      200,
    ),
  );
  app.openapi(withRight(routes.getWebhookDelivery, deps), async (c) => {
    const { id, did } = c.req.valid('param');
    return c.json(await getDelivery(deps, tenantId(c), id, did), 200);
  });
  app.openapi(withRight(routes.retryWebhookDelivery, deps), async (c) => {
    const { id, did } = c.req.valid('param');
    return c.json(await retryDelivery(deps, tenantId(c), id, did), 202);
  });
  app.openapi(withRight(routes.recoverWebhookDeliveries, deps), async (c) =>
    c.json(
      await recoverDeliveries(
        deps,
        tenantId(c),
        c.req.valid('param').id,
        c.req.valid('json').since,
      ),
      202,
    ),
  );
}
