import { createRoute } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import {
  ApiKeySchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  RollApiKeyBodySchema,
} from '../schemas/api-keys';
import { IdParamsSchema, listOf, TenantHeadersSchema } from '../schemas/common';
import { CreateUserBodySchema, UpdateUserBodySchema, UserSchema } from '../schemas/identity';
import { jsonBody, jsonResponse, noContent, SESSION } from './helpers';

/** Settings are for a tenant's admins, through a session (an API key cannot manage keys or users). */
const adminErrors: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'tenant_invalide',
  'acces_refuse',
];
const base = { security: [SESSION] };
const usersTag = { tags: ['Settings: users'] };
const keysTag = { tags: ['Settings: API keys'] };

export const listUsers = createRoute({
  operationId: 'listUsers',
  ...base,
  ...usersTag,
  method: 'get',
  path: '/api/v1/settings/users',
  summary: "List the tenant's users",
  description:
    'Every member of the tenant with the roles it holds there. Admins only, through a session.',
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(listOf(UserSchema), 'The users and their roles.'),
    ...errorResponses(...adminErrors),
  },
});

export const createUser = createRoute({
  operationId: 'createUser',
  ...base,
  ...usersTag,
  method: 'post',
  path: '/api/v1/settings/users',
  summary: 'Invite a person to the tenant',
  description:
    'Always an invitation (SPEC §3): the person receives an e-mail with a link (valid 7 days) and becomes a member only once they accept it (signing in to their account, or creating one by setting their own password). The answer is the same whether or not the e-mail already has an account; nothing of the account (password, name, e-mail) is set or shown here, and a `password` field is refused (`requete_invalide`). Inviting an e-mail already invited refreshes the roles and mails a new link; a member already: 409 `conflit`. Only a super-admin invites an `admin` or `super-admin`.',
  request: { headers: TenantHeadersSchema, body: jsonBody(CreateUserBodySchema) },
  responses: {
    201: jsonResponse(UserSchema, 'The user.'),
    ...errorResponses(...adminErrors, 'conflit'),
  },
});

export const updateUser = createRoute({
  operationId: 'updateUser',
  ...base,
  ...usersTag,
  method: 'patch',
  path: '/api/v1/settings/users/{id}',
  summary: "Change a member's or an invitation's roles",
  description:
    'Only the roles: a person’s name, e-mail and password are theirs alone. Only a super-admin grants, changes or removes `admin` or `super-admin`, or edits a membership that holds one (`acces_refuse` with `params.required` `super-admin`); a tenant always keeps an active super-admin (409 `conflit`, `params.reason` `last_super_admin`).',
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    body: jsonBody(UpdateUserBodySchema),
  },
  responses: {
    200: jsonResponse(UserSchema, 'The user.'),
    ...errorResponses(...adminErrors, 'introuvable', 'conflit'),
  },
});

export const deleteUser = createRoute({
  operationId: 'deleteUser',
  ...base,
  ...usersTag,
  method: 'delete',
  path: '/api/v1/settings/users/{id}',
  summary: 'Remove a member, or withdraw an invitation',
  description:
    'Ends the membership, not the account: their sessions and API keys stop working in this tenant at once. Only a super-admin removes an admin or a super-admin; the last super-admin cannot be removed.',
  request: { headers: TenantHeadersSchema, params: IdParamsSchema },
  responses: { 204: noContent, ...errorResponses(...adminErrors, 'introuvable', 'conflit') },
});

export const listApiKeys = createRoute({
  operationId: 'listApiKeys',
  ...base,
  ...keysTag,
  method: 'get',
  path: '/api/v1/settings/api-keys',
  summary: "List the tenant's API keys",
  description: 'Never returns a secret.',
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(listOf(ApiKeySchema), 'The keys, newest first.'),
    ...errorResponses(...adminErrors),
  },
});

export const createApiKey = createRoute({
  operationId: 'createApiKey',
  ...base,
  ...keysTag,
  method: 'post',
  path: '/api/v1/settings/api-keys',
  summary: 'Create an API key',
  description:
    'Admins only. `expires_at` is mandatory and at most one year ahead; scopes must name bought modules, `rules` or `webhooks`. The key acts with its scopes ∩ the creator’s current rights.',
  request: { headers: TenantHeadersSchema, body: jsonBody(CreateApiKeyBodySchema) },
  responses: {
    201: jsonResponse(CreatedApiKeySchema, 'The key, with its secret (shown once).'),
    ...errorResponses(...adminErrors),
  },
});

export const revokeApiKey = createRoute({
  operationId: 'revokeApiKey',
  ...base,
  ...keysTag,
  method: 'delete',
  path: '/api/v1/settings/api-keys/{id}',
  summary: 'Revoke an API key',
  description: 'Refused from the next request on, on every instance.',
  request: { headers: TenantHeadersSchema, params: IdParamsSchema },
  responses: { 204: noContent, ...errorResponses(...adminErrors, 'introuvable') },
});

export const rollApiKey = createRoute({
  operationId: 'rollApiKey',
  ...base,
  ...keysTag,
  method: 'post',
  path: '/api/v1/settings/api-keys/{id}/roll',
  summary: 'Replace an API key',
  description:
    'Issues a key with the same name and scopes; the old one lives on for the grace period.',
  request: {
    headers: TenantHeadersSchema,
    params: IdParamsSchema,
    body: jsonBody(RollApiKeyBodySchema),
  },
  responses: {
    201: jsonResponse(CreatedApiKeySchema, 'The replacement, with its secret (shown once).'),
    ...errorResponses(...adminErrors, 'introuvable'),
  },
});
