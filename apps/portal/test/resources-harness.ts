import { MODULES, type Resource } from '@erp/contract';
import { sampleBody } from '../seed';
import type { createTestPortal } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;

/**
 * Creates `count` records of every resource through the API, referencing earlier ones and,
 * where a field names a user, one of `users` (members of the tenant).
 */
export async function populate(
  portal: Portal,
  resources: readonly Resource[],
  headers: Record<string, string>,
  count = 2,
  users: string[] = [],
) {
  const refs = new Map<string, string[]>([['user', users]]);
  for (const resource of resources) {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const res = await portal
        .post(`/api/v1/${resource.path}`, sampleBody(resource, n, refs), headers)
        .then(portal.json);
      if (res.status !== 201)
        throw new Error(`create ${resource.name}: ${res.status} ${JSON.stringify(res.body)}`);
      ids.push(res.body.id);
    }
    refs.set(resource.name, ids);
  }
  return refs;
}

/** Every right of every module: a key or user that can do anything the tenant bought. */
export const ALL_MODULE_SCOPES = MODULES.flatMap((m) => [`${m}:read`, `${m}:write`]);
