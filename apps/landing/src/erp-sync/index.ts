import { ErpSyncPushSchema } from '@erp/contract';
import { bodyTooLarge, readJsonBody, requireSharedKey } from '@erp/http';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { LandingAppEnv, LandingDeps } from '../deps';
import { applySyncPush } from './apply-push';
import { readSyncHealth } from './health';

/** A snapshot is a set: one row per tenant id and slug, per plan code. */
const SyncPushSchema = ErpSyncPushSchema.superRefine((push, ctx) => {
  const duplicate = (values: string[]) => values.findIndex((v, i) => values.indexOf(v) !== i);
  const checks = [
    ['tenants', 'id', push.tenants.map((t) => t.id)],
    ['tenants', 'slug', push.tenants.map((t) => t.slug)],
    ['plans', 'code', push.plans.map((p) => p.code)],
  ] as const;
  for (const [list, field, values] of checks) {
    const at = duplicate([...values]);
    if (at !== -1)
      ctx.addIssue({ code: 'custom', path: [list, at, field], message: `Duplicate ${field}` });
  }
});

/**
 * `POST /api/erp-sync` (X-API-Key: LANDING_SYNC_API_KEY, checked before the body is read) and
 * `GET /api/erp-sync/health`. Mounted before the global body limit: a snapshot of every tenant
 * is larger than a form, so the push has its own limit, applied after the key check.
 */
export function registerErpSyncRoutes(app: Hono<LandingAppEnv>, deps: LandingDeps): void {
  app.post(
    '/api/erp-sync',
    requireSharedKey(deps.env.LANDING_SYNC_API_KEY),
    bodyLimit({
      maxSize: deps.env.ERP_SYNC_BODY_LIMIT_BYTES,
      onError: bodyTooLarge(deps.env.ERP_SYNC_BODY_LIMIT_BYTES),
    }),
    async function receiveSyncPush(c) {
      const push = await readJsonBody(c, SyncPushSchema);
      const result = await applySyncPush(deps, push);
      deps.metrics.syncPushes.inc({ status: result.status });
      deps.logger.info('erp sync push', {
        request_id: c.get('requestId'),
        status: result.status,
        ...result.counts,
      });
      return c.json(result);
    },
  );
  app.get('/api/erp-sync/health', async function syncHealth(c) {
    return c.json(await readSyncHealth(deps));
  });
}
