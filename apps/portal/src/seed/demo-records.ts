import type { Resource } from '@erp/contract';
import { insertRecord, type TenantDatabase, transitionRecord } from '../resources';
import { sampleBody } from './samples';

/**
 * `perResource` records of every resource for one tenant, created through the generic
 * engine (numbers, totals and events as the API makes them), with lifecycles walked so each
 * list shows a mix of statuses. Fields naming a user name one of `members` (members of the
 * tenant: the database refuses anyone else). Skipped when the tenant already has records.
 */
export async function seedDemoRecords(
  tenantDb: TenantDatabase,
  tenantId: string,
  resources: readonly Resource[],
  perResource = 12,
  members: readonly string[] = [],
): Promise<number> {
  return tenantDb.transaction(tenantId, async (client) => {
    const first = resources[0];
    if (first && (await client.query(`SELECT 1 FROM ${first.table} LIMIT 1`)).rowCount) return 0;
    const refs = new Map<string, readonly string[]>([['user', members]]);
    let created = 0;
    for (const resource of resources) {
      const ids: string[] = [];
      for (let n = 0; n < perResource; n++) {
        const record = JSON.parse(
          (await insertRecord(client, resource, tenantId, sampleBody(resource, n, refs))).json,
        ) as { id: string };
        ids.push(record.id);
        for (const action of walk(resource, n))
          await transitionRecord(client, resource, tenantId, record.id, action);
        created++;
      }
      refs.set(resource.name, ids);
    }
    return created;
  });
}

/** The n-th record takes the first n % (k+1) steps of a walk through its lifecycle. */
function walk(resource: Resource, n: number): string[] {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return [];
  const steps: string[] = [];
  let state = lifecycle.initial;
  const visited = new Set([state]);
  for (;;) {
    const next = Object.entries(lifecycle.actions).find(
      ([, spec]) => spec.from.includes(state) && !visited.has(spec.to) && spec.to !== 'annule',
    );
    if (!next) break;
    steps.push(next[0]);
    state = next[1].to;
    visited.add(state);
  }
  return steps.slice(0, n % (steps.length + 1));
}
