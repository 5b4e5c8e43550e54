import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../errors';
import { AuditLogQuerySchema, AuditLogSchema } from '../schemas/audit-log';
import { TenantHeadersSchema } from '../schemas/common';
import { jsonResponse, SESSION } from './helpers';

export const listAuditLog = createRoute({
  operationId: 'listAuditLog',
  security: [SESSION],
  tags: ['Settings: audit log'],
  method: 'get',
  path: '/api/v1/settings/audit-log',
  summary: "The tenant's audit log of security operations",
  description:
    'Admins only, through a session. Newest first, keyset paginated; filter by `action` and by `actor` (a user or API key id). Rows are never changed or deleted.',
  request: { headers: TenantHeadersSchema, query: AuditLogQuerySchema },
  responses: {
    200: jsonResponse(AuditLogSchema, 'One page.'),
    ...errorResponses(
      'requete_invalide',
      'tenant_requis',
      'non_authentifie',
      'jeton_invalide',
      'tenant_invalide',
      'acces_refuse',
    ),
  },
});
