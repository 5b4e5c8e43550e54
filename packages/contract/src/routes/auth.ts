import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { TenantHeadersSchema } from '../schemas/common';
import {
  LoginBodySchema,
  LogoutBodySchema,
  MeSchema,
  RefreshBodySchema,
  RefreshCookieSchema,
  TokenPairSchema,
} from '../schemas/identity';
import { API_KEY, CALLER_ERRORS, jsonBody, jsonResponse, noContent, SESSION } from './helpers';

const setRefreshCookie = z.object({
  'Set-Cookie': z.string().optional().openapi({
    description:
      'Cookie mode only: `erp_refresh=<token>; HttpOnly; Secure; SameSite=Strict; Path=/api/v1/auth/refresh; Max-Age=2592000`.',
  }),
});

export const login = createRoute({
  operationId: 'login',
  method: 'post',
  path: '/api/v1/auth/login',
  tags: ['Authentication'],
  summary: 'Log in with e-mail and password',
  description:
    'Failed attempts are throttled per e-mail and client address pair and per client address (429 `limite_depassee` with `Retry-After`). An SSO tenant answers `sso_requis`. With `refresh_cookie`, the refresh token goes in the `erp_refresh` cookie rather than the body.',
  request: { body: jsonBody(LoginBodySchema) },
  responses: {
    200: {
      ...jsonResponse(TokenPairSchema, 'A short-lived access token and a refresh token.'),
      headers: setRefreshCookie,
    },
    ...errorResponses(
      'requete_invalide',
      'identifiants_invalides',
      'origine_interdite',
      'sso_requis',
      'tenant_invalide',
      'limite_depassee',
    ),
  },
});

export const refresh = createRoute({
  operationId: 'refreshSession',
  method: 'post',
  path: '/api/v1/auth/refresh',
  tags: ['Authentication'],
  summary: 'Exchange a refresh token for a new pair',
  description:
    'Refresh tokens rotate: each is good once. Presenting a used one revokes its whole family. The token comes from the body (`refresh_token`, answered in the body) or, when the body has none, from the `erp_refresh` cookie (answered in a new cookie); a cookie is only accepted with the portal’s own `Origin` (403 `origine_interdite`), and a refused one is cleared.',
  request: {
    body: { ...jsonBody(RefreshBodySchema), required: false },
    cookies: RefreshCookieSchema,
  },
  responses: {
    200: {
      ...jsonResponse(TokenPairSchema, 'A new access token, and the new refresh token.'),
      headers: setRefreshCookie,
    },
    ...errorResponses('requete_invalide', 'non_authentifie', 'jeton_invalide', 'origine_interdite'),
  },
});

export const revokeRefreshCookie = createRoute({
  operationId: 'logoutCookieSession',
  method: 'delete',
  path: '/api/v1/auth/refresh',
  tags: ['Authentication'],
  summary: 'Log out a cookie session',
  description:
    'Revokes the session of the `erp_refresh` cookie (its whole token family) and clears the cookie; 204 also when there is none. A cookie is only accepted with the portal’s own `Origin`.',
  request: { cookies: RefreshCookieSchema },
  responses: {
    204: {
      ...noContent,
      headers: z.object({
        'Set-Cookie': z.string().openapi({ description: 'Clears `erp_refresh` (Max-Age=0).' }),
      }),
    },
    ...errorResponses('origine_interdite'),
  },
});

export const logout = createRoute({
  operationId: 'logout',
  method: 'post',
  path: '/api/v1/auth/logout',
  tags: ['Authentication'],
  summary: 'Revoke a refresh token',
  description:
    'Revokes the session the refresh token belongs to (its whole token family): no token of it refreshes again. 204 also for an unknown token, so the answer tells nothing about it. Access tokens already issued live out their few minutes.',
  request: { body: jsonBody(LogoutBodySchema) },
  responses: { 204: noContent, ...errorResponses('requete_invalide') },
});

export const me = createRoute({
  operationId: 'getMe',
  method: 'get',
  path: '/api/v1/me',
  tags: ['Authentication'],
  summary: 'Who am I, and what may I do in this tenant',
  description:
    'With a tenant header, `rights` are the effective rights there (for a key: its scopes ∩ its holder’s rights).',
  security: [SESSION, API_KEY],
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(MeSchema, 'The caller.', true),
    ...errorResponses(...CALLER_ERRORS),
  },
});
