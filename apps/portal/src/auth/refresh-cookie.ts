import { ApiError } from '@erp/contract';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { authorityOf, publicOrigin } from '../http/public-origin';
import { REFRESH_TOKEN_TTL_SECONDS } from './sessions';

/** The cookie the console keeps its refresh token in (SPEC §14). */
export const REFRESH_COOKIE = 'erp_refresh';
/** Sent only to the refresh route: no other request, and no script, ever sees the token. */
const COOKIE_PATH = '/api/v1/auth/refresh';

/** Sets the refresh token's cookie: HttpOnly, Secure, SameSite=Strict, refresh path only. */
export function setRefreshCookie(c: Context, token: string): void {
  setCookie(c, REFRESH_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
    path: COOKIE_PATH,
    maxAge: REFRESH_TOKEN_TTL_SECONDS,
  });
}

/** Tells the browser to drop the cookie (its attributes must match for it to apply). */
export function clearRefreshCookie(c: Context): void {
  deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH, secure: true, httpOnly: true });
}

/** The cookie's token, when the browser sent one. */
export function readRefreshCookie(c: Context): string | undefined {
  return getCookie(c, REFRESH_COOKIE) || undefined;
}

/**
 * Refuses a cookie-mode request that does not come from the portal's own pages: the `Origin`
 * must name the host the request was addressed to (`X-Forwarded-Host` behind a trusted proxy).
 * SameSite=Strict already keeps the cookie off cross-site requests; this also stops a sibling
 * subdomain (same site, other origin) and a browser without SameSite. Only the authority is
 * compared: behind a TLS-terminating proxy the portal sees `http` where the browser says
 * `https`, and the cookie is Secure anyway.
 */
export function requireOwnOrigin(c: Context, trustProxy: boolean): void {
  const origin = c.req.header('origin');
  if (origin !== undefined && authorityOf(origin) === ownAuthority(c, trustProxy)) return;
  throw new ApiError(
    'origine_interdite',
    origin === undefined
      ? 'The refresh cookie is only accepted with an Origin header (from the portal’s own pages).'
      : 'The refresh cookie is only accepted from the portal’s own pages (Origin).',
  );
}

function ownAuthority(c: Context, trustProxy: boolean): string | undefined {
  return authorityOf(publicOrigin(c, trustProxy));
}
