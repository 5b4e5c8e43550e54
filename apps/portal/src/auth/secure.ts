import { requireSharedKey } from '@erp/http';
import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { Deps } from '../deps';
import { authenticate } from './authenticate';

/**
 * Attaches the authentication the contract declares in `security`, so a route cannot be
 * implemented without the check its documentation promises.
 */
export function secure<R extends RouteConfig>(
  route: R,
  deps: Deps,
  tenant: 'required' | 'optional' = 'required',
): R {
  const middleware = securityMiddleware(route.security, deps, tenant);
  return middleware ? { ...route, middleware } : route;
}

/** The authentication middleware a contract `security` list asks for (none for public routes). */
export function securityMiddleware(
  security: RouteConfig['security'],
  deps: Deps,
  tenant: 'required' | 'optional' = 'required',
): MiddlewareHandler | undefined {
  const schemes = (security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return undefined;
  if (schemes.includes('internalApiKey')) return requireSharedKey(deps.env.SAAS_INTERNAL_API_KEY);
  const accepts = schemes.map((s) =>
    s === 'apiKey' ? ('api_key' as const) : ('session' as const),
  );
  return authenticate(deps, { accepts, tenant });
}
