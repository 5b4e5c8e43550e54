import { routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { requireAdminSession } from '../identity';
import { listAuditLog } from './log';

/** Settings → Audit log: admins read their tenant's rows (SPEC §12). */
export function registerAuditLogRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(secure(routes.listAuditLog, deps), async (c) => {
    const admin = requireAdminSession(callerOf(c), clientAddress(c, deps.env.TRUST_PROXY));
    return c.json(await listAuditLog(deps, admin.tenant.id, c.req.valid('query')), 200);
  });
}
