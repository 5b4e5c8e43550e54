import { routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from './api-keys';
import { requireAdminSession } from './settings-access';
import { inviteUser, listUsers, removeUser, updateUserRoles } from './users';

/** Settings → Users and Settings → API keys. */
export function registerIdentityRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const admin = (c: Parameters<typeof callerOf>[0]) =>
    requireAdminSession(callerOf(c), clientAddress(c, deps.env.TRUST_PROXY));

  app.openapi(secure(routes.listUsers, deps), async (c) =>
    c.json({ data: await listUsers(deps, admin(c)) }, 200),
  );
  app.openapi(secure(routes.createUser, deps), async (c) =>
    c.json(await inviteUser(deps, admin(c), c.req.valid('json')), 201),
  );
  app.openapi(secure(routes.updateUser, deps), async (c) =>
    c.json(
      await updateUserRoles(deps, admin(c), c.req.valid('param').id, c.req.valid('json')),
      200,
    ),
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
}
