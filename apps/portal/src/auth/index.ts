import { routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { describeCaller } from './me';
import { secure } from './secure';
import { login, logout, refresh } from './sessions';

export { generateApiKey, hashApiKey } from './api-key-format';
export { createTokenSigner, generateSigningKeys, type TokenSigner } from './jwt';
export { generatePassword, hashPassword } from './passwords';
export { isAdmin, requireRight, scopesOutsideModules } from './rights';
export { secure, securityMiddleware } from './secure';

/** Login, refresh, logout and `me`; the door other features use for authentication and rights. */
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
