import {
  ApiError,
  jobs,
  type PortalAccessSchema,
  SyncCountsSchema,
  type UpdatePortalAccessBody,
} from '@erp/contract';
import {
  type Database,
  enqueueJob,
  type Kysely,
  type PortalAccessTable,
  type Selectable,
} from '@erp/db';
import type { z } from 'zod';
import { requireSuperAdmin } from '../auth';
import type { Deps } from '../deps';
import { type Caller, tenantOf } from '../http/context';

type PortalAccess = z.infer<typeof PortalAccessSchema>;

/**
 * Settings → Portal access is platform-wide (it decides where every tenant's name is pushed),
 * so only a super-admin of the operator's own tenant (`PLATFORM_TENANT`) may read or change
 * it, through a session; a tenant's own admins may not.
 */
export function requirePlatformOperator(caller: Caller, platformTenant: string | undefined): void {
  const tenant = tenantOf(caller);
  if (caller.kind !== 'session') {
    throw new ApiError('acces_refuse', 'This route needs a user session.', { required: 'session' });
  }
  if (!platformTenant || tenant.slug !== platformTenant) {
    throw new ApiError('acces_refuse', "Only the platform operator's tenant manages this.", {
      required: 'platform_operator',
    });
  }
  requireSuperAdmin(caller.roles, 'manage portal access');
}

/** The settings and the worker's report of the last push. */
export async function readPortalAccess(db: Kysely<Database>): Promise<PortalAccess> {
  const row = await db.selectFrom('portal_access').selectAll().executeTakeFirstOrThrow();
  return toPortalAccess(row);
}

/** Changes the settings and queues an immediate push, in one transaction. */
export async function updatePortalAccess(
  deps: Deps,
  input: UpdatePortalAccessBody,
): Promise<PortalAccess> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('portal_access')
      .set({
        ...(input.sync_url !== undefined ? { sync_url: input.sync_url } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        updated_at: deps.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The job key keeps one pending push however many saves come in; the worker reads the
    // row when it runs, so the push it makes uses the settings as they are then.
    await enqueueJob(trx, jobs.erpSync, {});
    return toPortalAccess(row);
  });
}

function toPortalAccess(row: Selectable<PortalAccessTable>): PortalAccess {
  const counts = SyncCountsSchema.safeParse(row.last_counts);
  return {
    sync_url: row.sync_url,
    enabled: row.enabled,
    updated_at: row.updated_at.toISOString(),
    last_result: {
      status: row.last_status,
      attempted_at: row.last_attempt_at?.toISOString() ?? null,
      succeeded_at: row.last_success_at?.toISOString() ?? null,
      target: row.last_target,
      http_status: row.last_http_status,
      error: row.last_error,
      counts: counts.success ? counts.data : null,
    },
  };
}
