import { createRoute, z } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import { TenantHeadersSchema } from '../schemas/common';
import {
  SsoCallbackQuerySchema,
  SsoSettingsSchema,
  SsoStartQuerySchema,
  UpdateSsoSettingsBodySchema,
} from '../schemas/sso';
import { jsonBody, jsonResponse, noContent, SESSION } from './helpers';

/** Settings → Single sign-on is for a tenant's admins, through a session. */
const adminErrors: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'tenant_invalide',
  'acces_refuse',
];
const settings = { security: [SESSION], tags: ['Settings: single sign-on'] };
const settingsPath = '/api/v1/settings/sso';

export const getSsoSettings = createRoute({
  operationId: 'getSsoSettings',
  ...settings,
  method: 'get',
  path: settingsPath,
  summary: "The tenant's single sign-on (OpenID Connect) settings",
  description: 'Admins only. The client secret is never returned (`client_secret_set`).',
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(SsoSettingsSchema, 'The settings, or their defaults when none are set.'),
    ...errorResponses(...adminErrors),
  },
});

export const updateSsoSettings = createRoute({
  operationId: 'updateSsoSettings',
  ...settings,
  method: 'put',
  path: settingsPath,
  summary: 'Set the OpenID provider people of this tenant sign in with',
  description:
    'Super-admins only (an admin: 403 `acces_refuse`, `params.required` `super-admin`): the provider decides who signs in as whom. The issuer’s discovery document and its key set (JWKS) are fetched and checked first: an issuer that cannot be reached, does not name itself, or publishes no signing key is `requete_invalide` with an issue on `issuer` (`issuer_unreachable`, `issuer_mismatch`, `discovery_invalid`, `jwks_invalid`, `https_required`, `private_address`), and nothing is stored.',
  request: { headers: TenantHeadersSchema, body: jsonBody(UpdateSsoSettingsBodySchema) },
  responses: {
    200: jsonResponse(SsoSettingsSchema, 'The settings as stored.'),
    ...errorResponses(...adminErrors),
  },
});

export const deleteSsoSettings = createRoute({
  operationId: 'deleteSsoSettings',
  ...settings,
  method: 'delete',
  path: settingsPath,
  summary: 'Remove single sign-on from the tenant',
  description:
    'Super-admins only. Password logins work again; sessions opened through single sign-on live on until they end.',
  request: { headers: TenantHeadersSchema },
  responses: { 204: noContent, ...errorResponses(...adminErrors) },
});

const redirect = (description: string) => ({
  description,
  headers: z.object({ Location: z.string().openapi({ description: 'Where the browser goes.' }) }),
});

const navigation =
  'A browser navigation (`Accept: text/html`) that fails is sent to the console’s `/login?sso_error=<code>` instead of a JSON error.';

export const ssoStart = createRoute({
  operationId: 'startSsoLogin',
  method: 'get',
  path: '/api/v1/auth/sso/start',
  tags: ['Authentication'],
  summary: 'Start signing in through the tenant’s identity provider',
  description: `Redirects to the provider’s authorization endpoint (authorization code with PKCE, \`state\` and \`nonce\`, kept server-side for 10 minutes and good once). Sets the short-lived \`erp_sso\` cookie that ties the sign-in to this browser. ${navigation}`,
  request: { query: SsoStartQuerySchema },
  responses: {
    303: redirect('To the identity provider.'),
    ...errorResponses('requete_invalide', 'introuvable', 'fournisseur_sso_indisponible'),
  },
});

export const ssoCallback = createRoute({
  operationId: 'completeSsoLogin',
  method: 'get',
  path: '/api/v1/auth/sso/callback',
  tags: ['Authentication'],
  summary: 'Finish signing in: the identity provider’s redirect',
  description: `Checks \`state\` (and the browser's \`erp_sso\` cookie), exchanges the code, verifies the ID token (issuer, audience, nonce, signature from the provider’s key set, expiry, \`email_verified\`), then opens a session limited to this tenant, as a password login does in cookie mode: the refresh token in the \`erp_refresh\` cookie, and a redirect to \`return_to\`. A verified e-mail in one of \`allowed_domains\` becomes a member with \`default_role\` (just in time); anyone else who is not a member is \`acces_refuse\`. ${navigation}`,
  request: { query: SsoCallbackQuerySchema },
  responses: {
    303: {
      ...redirect('Signed in: to `return_to`.'),
      headers: z.object({
        Location: z.string(),
        'Set-Cookie': z.string().openapi({
          description:
            '`erp_refresh=<token>; HttpOnly; Secure; SameSite=Strict; Path=/api/v1/auth/refresh`, and `erp_sso` cleared.',
        }),
      }),
    },
    ...errorResponses(
      'requete_invalide',
      'etat_sso_invalide',
      'jeton_sso_invalide',
      'acces_refuse',
      'introuvable',
      'fournisseur_sso_indisponible',
    ),
  },
});
