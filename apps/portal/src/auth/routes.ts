import { ApiError, routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { publicOrigin } from '../http/public-origin';
import { acceptInvitation, joinInvitation, lookupInvitation } from './invitations';
import { describeCaller } from './me';
import { requestPasswordReset, setPasswordWithLink } from './password-links';
import {
  clearRefreshCookie,
  readRefreshCookie,
  requireOwnOrigin,
  setRefreshCookie,
} from './refresh-cookie';
import { secure } from './secure';
import { login, logout, refresh, type TokenPair } from './sessions';

/**
 * Login, refresh, logout, password reset, invitations and `me`.
 * Two ways to hold a refresh token: in the JSON bodies (integrators), or in the `erp_refresh`
 * cookie (the console: `refresh_cookie` at login), where scripts cannot read it.
 */
export function registerAuthRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const trustProxy = deps.env.TRUST_PROXY;

  app.openapi(routes.login, async (c) => {
    const { refresh_cookie: inCookie, ...credentials } = c.req.valid('json');
    // Before the password is even checked: a cross-origin page must not log a browser in.
    if (inCookie) requireOwnOrigin(c, trustProxy);
    const pair = await login(
      deps,
      credentials,
      clientAddress(c, trustProxy),
      publicOrigin(c, trustProxy),
    );
    c.header('Cache-Control', 'no-store');
    return c.json(inCookie ? inCookieOnly(c, pair) : pair, 200);
  });

  app.openapi(routes.refresh, async (c) => {
    c.header('Cache-Control', 'no-store');
    const fromBody = c.req.valid('json').refresh_token;
    if (fromBody !== undefined) return c.json(await refresh(deps, fromBody), 200);
    const fromCookie = readRefreshCookie(c);
    if (fromCookie === undefined)
      throw new ApiError('non_authentifie', 'Send a refresh_token, or the erp_refresh cookie.');
    requireOwnOrigin(c, trustProxy);
    let pair: TokenPair;
    try {
      pair = await refresh(deps, fromCookie);
    } catch (error) {
      // A dead cookie is dropped, so the browser stops presenting it.
      clearRefreshCookie(c);
      throw error;
    }
    return c.json(inCookieOnly(c, pair), 200);
  });

  app.openapi(routes.revokeRefreshCookie, async (c) => {
    const token = readRefreshCookie(c);
    if (token !== undefined) {
      requireOwnOrigin(c, trustProxy);
      await logout(deps, token);
    }
    clearRefreshCookie(c);
    return c.body(null, 204);
  });

  app.openapi(routes.logout, async (c) => {
    await logout(deps, c.req.valid('json').refresh_token);
    return c.body(null, 204);
  });

  app.openapi(routes.requestPasswordReset, async (c) => {
    const { email } = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    return c.json(await requestPasswordReset(deps, email, clientAddress(c, trustProxy)), 202);
  });

  app.openapi(routes.confirmPasswordReset, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(
      await setPasswordWithLink(deps, c.req.valid('json'), clientAddress(c, trustProxy)),
      200,
    );
  });

  app.openapi(routes.lookupInvitation, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await lookupInvitation(deps, c.req.valid('json').token), 200);
  });
  app.openapi(routes.acceptInvitation, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(
      await acceptInvitation(deps, c.req.valid('json'), clientAddress(c, trustProxy)),
      200,
    );
  });
  app.openapi(secure(routes.joinInvitation, deps, 'optional'), async (c) =>
    c.json(
      await joinInvitation(
        deps,
        callerOf(c).userId,
        c.req.valid('json').token,
        clientAddress(c, trustProxy),
      ),
      200,
    ),
  );

  app.openapi(secure(routes.me, deps, 'optional'), async (c) =>
    c.json(await describeCaller(deps, callerOf(c)), 200),
  );
}

/** Cookie mode: the refresh token goes in the cookie, the body keeps only the access token. */
function inCookieOnly(c: Context, pair: TokenPair): Omit<TokenPair, 'refresh_token'> {
  const { refresh_token: token, ...access } = pair;
  setRefreshCookie(c, token);
  return access;
}
