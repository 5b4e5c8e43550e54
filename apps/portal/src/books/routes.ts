import { routes } from '@erp/contract';
import { clientAddress } from '@erp/http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { requireRight, secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf, tenantOf } from '../http/context';
import { requireAdminSession } from '../identity';
import { agedBalance } from './aged-balance';
import { fecFile } from './fec';
import { generalLedger } from './general-ledger';
import { readAccountingSettings, updateAccountingSettings } from './settings';
import { trialBalance } from './trial-balance';

/** Settings → Accounting (SPEC §17). */
export function registerBooksRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(secure(routes.getAccountingSettings, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
    return c.json(
      await deps.tenantDb.run(tenant.id, (client) => readAccountingSettings(client, tenant.id)),
      200,
    );
  });
  app.openapi(secure(routes.trialBalance, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
    const query = c.req.valid('query');
    return c.json(
      await deps.tenantDb.run(tenant.id, (client) =>
        trialBalance(client, tenant.id, query, deps.now()),
      ),
      200,
    );
  });
  app.openapi(secure(routes.generalLedger, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
    const query = c.req.valid('query');
    return c.json(
      await deps.tenantDb.run(tenant.id, (client) =>
        generalLedger(client, tenant.id, query, deps.now()),
      ),
      200,
    );
  });
  for (const side of ['receivables', 'payables'] as const) {
    const route = side === 'receivables' ? routes.agedReceivables : routes.agedPayables;
    app.openapi(secure(route, deps), async (c) => {
      const caller = callerOf(c);
      const tenant = tenantOf(caller);
      requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
      const query = c.req.valid('query');
      return c.json(
        await deps.tenantDb.run(tenant.id, (client) =>
          agedBalance(client, tenant.id, side, query, deps.now()),
        ),
        200,
      );
    });
  }
  app.openapi(secure(routes.fecExport, deps), async (c) => {
    const caller = callerOf(c);
    const tenant = tenantOf(caller);
    requireRight({ rights: caller.rights, modules: tenant.modules }, 'accounting:read');
    const { fiscal_year_id } = c.req.valid('query');
    const file = await deps.tenantDb.run(tenant.id, (client) =>
      fecFile(client, tenant, fiscal_year_id),
    );
    return c.body(file.text, 200, {
      'Content-Type': 'text/tab-separated-values; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'no-store',
    });
  });
  app.openapi(secure(routes.updateAccountingSettings, deps), async (c) => {
    const actor = requireAdminSession(callerOf(c), clientAddress(c, deps.env.TRUST_PROXY));
    requireRight({ rights: callerOf(c).rights, modules: actor.tenant.modules }, 'accounting:write');
    const body = c.req.valid('json');
    return c.json(
      await deps.tenantDb.transaction(actor.tenant.id, (client) =>
        updateAccountingSettings(client, actor.tenant.id, body),
      ),
      200,
    );
  });
}
