import { createRoute } from '@hono/zod-openapi';
import { type ErrorCode, errorResponses } from '../errors';
import { TenantHeadersSchema } from '../schemas/common';
import { PortalAccessSchema, UpdatePortalAccessBodySchema } from '../schemas/portal-access';
import { jsonBody, jsonResponse, SESSION } from './helpers';

/**
 * Settings → Portal access is platform-wide (it decides where every tenant's name goes), so
 * it belongs to the platform operator, not to a tenant's admins.
 */
const errors: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'tenant_invalide',
  'acces_refuse',
];
const who =
  "Platform operator only: a session whose membership in the tenant named by `X-Tenant` has the role `super-admin`, that tenant being the one the portal's `PLATFORM_TENANT` names. Anyone else gets `acces_refuse` (`params.required`: `platform_operator` or `super-admin`); API keys are refused (`params.required`: `session`).";
const base = { security: [SESSION], tags: ['Settings: portal access'] };
const path = '/api/v1/settings/portal-access';

export const getPortalAccess = createRoute({
  operationId: 'getPortalAccess',
  ...base,
  method: 'get',
  path,
  summary: 'Where the ERP sync goes, and how the last push went',
  description: who,
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(PortalAccessSchema, 'The settings and the last push.'),
    ...errorResponses(...errors),
  },
});

export const updatePortalAccess = createRoute({
  operationId: 'updatePortalAccess',
  ...base,
  method: 'put',
  path,
  summary: 'Change the ERP sync target or switch it on or off',
  description: `${who} Send at least one field; unknown fields are refused. A push is queued at once (in the same transaction), so the result shows in \`last_result\` within seconds.`,
  request: { headers: TenantHeadersSchema, body: jsonBody(UpdatePortalAccessBodySchema) },
  responses: {
    200: jsonResponse(PortalAccessSchema, 'The settings as stored.'),
    ...errorResponses(...errors),
  },
});
