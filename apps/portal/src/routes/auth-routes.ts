import { routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { secure } from '../http/secure';
import { describeCaller } from '../identity/me';
import { login, logout, refresh } from '../identity/sessions';

/** Login, refresh, logout and `me`. */
export function registerAuthRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(routes.login, async (c) => {
    const pair = await login(deps, c.req.valid('json'), clientAddress(c, deps.env.TRUST_PROXY));
    c.header('Cache-Control', 'no-store');
    return c.json(pair, 200);
  });

  app.openapi(routes.refresh, async (c) => {
    const pair = await refresh(deps, c.req.valid('json').refresh_token);
    c.header('Cache-Control', 'no-store');
    return c.json(pair, 200);
  });

  app.openapi(routes.logout, async (c) => {
    await logout(deps, c.req.valid('json').refresh_token);
    return c.body(null, 204);
  });

  app.openapi(secure(routes.me, deps, 'optional'), async (c) =>
    c.json(await describeCaller(deps, callerOf(c)), 200),
  );
}
