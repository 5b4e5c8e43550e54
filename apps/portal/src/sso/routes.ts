import { ApiError, routes, SSO_STATE_TTL_SECONDS } from '@erp/contract';
import { clientAddress, validationHook, wantsHtml } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { requireSuperAdmin, secure, setRefreshCookie } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { publicOrigin } from '../http/public-origin';
import { requireAdminSession } from '../identity';
import { finishSignIn, startSignIn } from './flow';
import {
  deleteSsoSettings,
  readSsoSettings,
  SSO_CALLBACK_PATH,
  updateSsoSettings,
} from './settings';

/** Ties a started sign-in to the browser that started it (login CSRF), for the callback only. */
const STATE_COOKIE = 'erp_sso';

/**
 * Settings → Single sign-on, and the sign-in through a tenant's OpenID provider (SPEC §13):
 * start redirects to the provider, the callback opens a cookie session as the console's
 * password login does and sends the browser on to `return_to`.
 */
export function registerSsoRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const trustProxy = deps.env.TRUST_PROXY;
  const admin = (c: Context<AppEnv>) =>
    requireAdminSession(callerOf(c), clientAddress(c, trustProxy));
  // Who signs in is the provider's word: choosing it is a super-admin's act (SPEC §3).
  const superAdmin = (c: Context<AppEnv>) => {
    const actor = admin(c);
    requireSuperAdmin(actor.roles, 'configure single sign-on');
    return actor;
  };
  const origin = (c: Context) => publicOrigin(c, trustProxy);

  app.openapi(secure(routes.getSsoSettings, deps), async (c) =>
    c.json(await readSsoSettings(deps, admin(c), origin(c)), 200),
  );
  app.openapi(secure(routes.updateSsoSettings, deps), async (c) =>
    c.json(await updateSsoSettings(deps, superAdmin(c), c.req.valid('json'), origin(c)), 200),
  );
  app.openapi(secure(routes.deleteSsoSettings, deps), async (c) => {
    await deleteSsoSettings(deps, superAdmin(c));
    return c.body(null, 204);
  });

  app.openapi(
    routes.ssoStart,
    async (c) => {
      const input = c.req.valid('query');
      try {
        const started = await startSignIn(deps, input, origin(c));
        setCookie(c, STATE_COOKIE, started.state, {
          httpOnly: true,
          secure: true,
          // Lax, not Strict: the provider's redirect back is a cross-site navigation.
          sameSite: 'Lax',
          path: SSO_CALLBACK_PATH,
          maxAge: SSO_STATE_TTL_SECONDS,
        });
        return redirect(c, started.location);
      } catch (error) {
        return failed(c, error, input.tenant);
      }
    },
    (result, c) => navigationHook(result, c),
  );

  app.openapi(
    routes.ssoCallback,
    async (c) => {
      const query = new URL(c.req.url).searchParams;
      const browserState = getCookie(c, STATE_COOKIE) || undefined;
      // Good once whatever happens next: the browser has no more use for it.
      deleteCookie(c, STATE_COOKIE, { path: SSO_CALLBACK_PATH, secure: true, httpOnly: true });
      try {
        const signedIn = await finishSignIn(
          deps,
          query,
          browserState,
          clientAddress(c, trustProxy),
        );
        const { refresh_token: refreshToken } = signedIn.tokens;
        setRefreshCookie(c, refreshToken);
        return redirect(c, signedIn.returnTo);
      } catch (error) {
        return failed(c, error);
      }
    },
    (result, c) => navigationHook(result, c),
  );
}

function redirect(c: Context, location: string): Response {
  c.header('Cache-Control', 'no-store');
  // The callback's address holds the provider's code: never pass it on as a Referer.
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(location, 303);
}

/**
 * A refusal the browser reached by navigating goes to the console's login page with its code
 * (`/login?sso_error=etat_sso_invalide`), where the person can read it and start again; an API
 * client gets the usual JSON error. Unexpected errors stay 500s for `onError`.
 */
function failed(c: Context, error: unknown, tenant?: string): Response {
  if (!(error instanceof ApiError) || !wantsHtml(c)) throw error;
  const query = new URLSearchParams({ sso_error: error.code });
  if (tenant) query.set('tenant', tenant);
  return redirect(c, `/login?${query}`);
}

function navigationHook(
  result: Parameters<typeof validationHook>[0],
  c: Context,
): Response | undefined {
  try {
    validationHook(result);
    return undefined;
  } catch (error) {
    return failed(c, error);
  }
}
