import { routes } from '@erp/contract';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../identity/api-keys';
import { requireAdminSession } from '../identity/settings-access';
import { createUser, listUsers, removeUser, updateUser } from '../identity/users';
import {
  readPortalAccess,
  requirePlatformOperator,
  updatePortalAccess,
} from '../platform/portal-access';

/** Settings → Users, Settings → API keys and Settings → Portal access. */
export function registerSettingsRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const admin = (c: Parameters<typeof callerOf>[0]) => requireAdminSession(callerOf(c));

  app.openapi(secure(routes.listUsers, deps), async (c) =>
    c.json({ data: await listUsers(deps, admin(c)) }, 200),
  );
  app.openapi(secure(routes.createUser, deps), async (c) =>
    c.json(await createUser(deps, admin(c), c.req.valid('json')), 201),
  );
  app.openapi(secure(routes.updateUser, deps), async (c) =>
    c.json(await updateUser(deps, admin(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(secure(routes.deleteUser, deps), async (c) => {
    await removeUser(deps, admin(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

  app.openapi(secure(routes.listApiKeys, deps), async (c) =>
    c.json({ data: await listApiKeys(deps, admin(c)) }, 200),
  );
  app.openapi(secure(routes.createApiKey, deps), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await createApiKey(deps, admin(c), c.req.valid('json')), 201);
  });
  app.openapi(secure(routes.revokeApiKey, deps), async (c) => {
    await revokeApiKey(deps, admin(c), c.req.valid('param').id);
    return c.body(null, 204);
  });
  app.openapi(secure(routes.rollApiKey, deps), async (c) => {
    const { id } = c.req.valid('param');
    c.header('Cache-Control', 'no-store');
    return c.json(
      await rollApiKey(deps, admin(c), id, c.req.valid('json').expire_previous_in_hours),
      201,
    );
  });

  const operator = (c: Parameters<typeof callerOf>[0]) =>
    requirePlatformOperator(callerOf(c), deps.env.PLATFORM_TENANT);
  app.openapi(secure(routes.getPortalAccess, deps), async (c) => {
    operator(c);
    return c.json(await readPortalAccess(deps.db), 200);
  });
  app.openapi(secure(routes.updatePortalAccess, deps), async (c) => {
    operator(c);
    return c.json(await updatePortalAccess(deps, c.req.valid('json')), 200);
  });
}
