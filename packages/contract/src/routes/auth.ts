import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { TenantHeadersSchema } from '../schemas/common';
import { LoginBodySchema, MeSchema, RefreshBodySchema, TokenPairSchema } from '../schemas/identity';
import { API_KEY, CALLER_ERRORS, jsonBody, jsonResponse, noContent, SESSION } from './helpers';

export const login = createRoute({
  method: 'post',
  path: '/api/v1/auth/login',
  tags: ['Authentication'],
  summary: 'Log in with e-mail and password',
  description:
    'Failed attempts are throttled per e-mail and client address pair and per client address (429 `limite_depassee` with `Retry-After`). An SSO tenant answers `sso_requis`.',
  request: { body: jsonBody(LoginBodySchema) },
  responses: {
    200: jsonResponse(TokenPairSchema, 'A short-lived access token and a refresh token.'),
    ...errorResponses(
      'requete_invalide',
      'identifiants_invalides',
      'sso_requis',
      'tenant_invalide',
      'limite_depassee',
    ),
  },
});

export const refresh = createRoute({
  method: 'post',
  path: '/api/v1/auth/refresh',
  tags: ['Authentication'],
  summary: 'Exchange a refresh token for a new pair',
  description:
    'Refresh tokens rotate: each is good once. Presenting a used one revokes its whole family.',
  request: { body: jsonBody(RefreshBodySchema) },
  responses: {
    200: jsonResponse(TokenPairSchema, 'A new token pair.'),
    ...errorResponses('requete_invalide', 'jeton_invalide'),
  },
});

export const logout = createRoute({
  method: 'post',
  path: '/api/v1/auth/logout',
  tags: ['Authentication'],
  summary: 'Revoke a refresh token',
  request: { body: jsonBody(RefreshBodySchema) },
  responses: { 204: noContent, ...errorResponses('requete_invalide') },
});

export const me = createRoute({
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
