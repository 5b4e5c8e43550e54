import { requireSharedKey } from '@erp/http';
import type { RouteConfig } from '@hono/zod-openapi';
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
  const schemes = (route.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.length === 0) return route;
  if (schemes.includes('internalApiKey')) {
    return { ...route, middleware: requireSharedKey(deps.env.SAAS_INTERNAL_API_KEY) };
  }
  const accepts = schemes.map((s) =>
    s === 'apiKey' ? ('api_key' as const) : ('session' as const),
  );
  return { ...route, middleware: authenticate(deps, { accepts, tenant }) };
}
