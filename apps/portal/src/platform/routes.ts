import { API_DOCUMENTS, ApiError, routes } from '@erp/contract';
import { sql } from '@erp/db';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { secure } from '../auth';
import type { Deps } from '../deps';
import { type AppEnv, callerOf } from '../http/context';
import { staticDocument } from '../http/static-document';
import { registerApiReference } from './api-reference';
import { openApiParts } from './api-reference-documents';
import { recordLead } from './leads';
import { listPublicPlans } from './plans';
import { readPortalAccess, requirePlatformOperator, updatePortalAccess } from './portal-access';
import { changeSubscription, provisionTenant } from './provisioning';

/**
 * Public plans, internal provisioning and leads, Settings → Portal access, health, the API
 * reference and the OpenAPI document, whose text or bytes `openapi` gives (the committed
 * openapi.json in the real app), and its parts.
 */
export function registerPlatformRoutes(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  openapi: () => string | Uint8Array,
): void {
  for (const route of [routes.listPublicPlans, routes.listPublicPlansAlias]) {
    app.openapi(route, async (c) => {
      if (!deps.env.PUBLIC_ENDPOINTS_ENABLED)
        throw new ApiError('introuvable', 'Public endpoints are disabled.');
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({ data: await listPublicPlans(deps) }, 200);
    });
  }

  app.openapi(secure(routes.provisionTenant, deps), async (c) => {
    const key = c.req.valid('header')['idempotency-key'];
    const { created, provisioned } = await provisionTenant(deps, c.req.valid('json'), key);
    // Its books and admin were written by the platform, not by a caller of the tenant: the
    // tenant's position moves too, so its first reads see them (read replicas, SPEC §19).
    await deps.reads?.wrote(provisioned.tenant.id);
    return created ? c.json(provisioned, 201) : c.json(provisioned, 200);
  });
  app.openapi(secure(routes.changeSubscription, deps), async (c) =>
    c.json(await changeSubscription(deps, c.req.valid('json')), 200),
  );
  app.openapi(secure(routes.recordLead, deps), async (c) => {
    const { created, lead } = await recordLead(deps, c.req.valid('json'));
    return created ? c.json(lead, 201) : c.json(lead, 200);
  });

  // Settings → Portal access is platform-wide: the operator's super-admins only.
  const operator = (c: Parameters<typeof callerOf>[0]) =>
    requirePlatformOperator(callerOf(c), deps.env.PLATFORM_TENANT);
  app.openapi(secure(routes.getPortalAccess, deps), async (c) => {
    operator(c);
    return c.json(await readPortalAccess(deps.db), 200);
  });
  app.openapi(secure(routes.updatePortalAccess, deps), async (c) => {
    operator(c);
    return c.json(await updatePortalAccess(deps, c.req.valid('json')), 200);
  });

  app.openapi(routes.health, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(routes.ready, async (c) => {
    try {
      await sql`SELECT 1`.execute(deps.db);
      return c.json({ status: 'ok' as const }, 200);
    } catch {
      return c.json({ status: 'unavailable' as const }, 503);
    }
  });

  // The document is a build artefact: the committed openapi.json, not generated here, which
  // would block the event loop for seconds at a thousand operations (PERFORMANCE-NOTES).
  const serveOpenApi = staticDocument(openapi, {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'public, max-age=300',
  });
  app.openapi(routes.openapiDocument, (c) => serveOpenApi(c) as never);
  // Its parts, one per module and the platform's, cut from that same text (the reference's).
  const parts = openApiParts(() => {
    const document = openapi();
    return typeof document === 'string' ? document : new TextDecoder().decode(document);
  });
  const serveParts = new Map(
    API_DOCUMENTS.map((name) => [
      `${name}.json`,
      staticDocument(() => parts.partText(name), {
        contentType: 'application/json; charset=utf-8',
        cacheControl: 'public, max-age=300',
      }),
    ]),
  );
  app.openapi(
    routes.moduleOpenapiDocument,
    (c) => serveParts.get(c.req.valid('param').document)!(c) as never,
  );
  registerApiReference(app, parts);
}
