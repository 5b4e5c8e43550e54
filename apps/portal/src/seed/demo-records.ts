import type { Resource } from '@erp/contract';
import type { TenantDatabase } from '../resources';
import { insertRecord, transitionRecord } from '../resources';
import {
  type SeedContext,
  type SeededRecord,
  type SeedOverrides,
  seedOverrides,
} from './catalogue';
import { fakerFor } from './fake';
import { sampleBody } from './samples';

/**
 * `perResource` records of every resource for one tenant, created through the generic
 * engine (numbers, totals and events as the API makes them), with lifecycles walked so each
 * list shows a mix of statuses. A resource's seed override makes its records agree with what
 * they refer to. Fields naming a user name one of `members` (members of the tenant: the
 * database refuses anyone else). Skipped when the tenant already has records.
 */
export async function seedDemoRecords(
  tenantDb: TenantDatabase,
  tenantId: string,
  resources: readonly Resource[],
  perResource = 12,
  members: readonly string[] = [],
  overrides: SeedOverrides = seedOverrides,
): Promise<number> {
  return tenantDb.transaction(tenantId, async (client) => {
    const first = resources[0];
    if (first && (await client.query(`SELECT 1 FROM ${first.table} LIMIT 1`)).rowCount) return 0;
    const refs = new Map<string, readonly string[]>([['user', members]]);
    const records = new Map<string, SeededRecord[]>();
    let created = 0;
    for (const resource of resources) {
      const made: SeededRecord[] = [];
      // Visible to the resource's own overrides as it grows: a tree's records name earlier ones.
      records.set(resource.name, made);
      for (let n = 0; n < perResource; n++) {
        const body = {
          ...sampleBody(resource, n, refs),
          ...overrides[resource.name]?.(context(resource, n, records)),
        };
        const written = await insertRecord(client, resource, tenantId, body);
        let record = JSON.parse(written.json) as SeededRecord;
        for (const action of walk(resource, n)) {
          const moved = await transitionRecord(client, resource, tenantId, record.id, action);
          record = JSON.parse(moved.json) as SeededRecord;
        }
        made.push(record);
        created++;
      }
      refs.set(
        resource.name,
        made.map((r) => r.id),
      );
    }
    return created;
  });
}

function context(
  resource: Resource,
  n: number,
  records: ReadonlyMap<string, readonly SeededRecord[]>,
): SeedContext {
  return {
    n,
    faker: fakerFor(`${resource.name}:override`, n),
    records,
    pick(name, k = n) {
      const pool = records.get(name);
      if (!pool?.length) throw new Error(`seed: ${resource.name} needs ${name} records first`);
      return pool[k % pool.length]!;
    },
    daysAfter(from, offsetDays) {
      const day = new Date(`${from}T00:00:00Z`);
      day.setUTCDate(day.getUTCDate() + offsetDays);
      return day.toISOString().slice(0, 10);
    },
  };
}

/**
 * The n-th record takes the first n % (k+1) steps of a walk through its lifecycle. Master data
 * (records born `actif`) is mostly in use: one record in four is archived, not every other one.
 */
function walk(resource: Resource, n: number): string[] {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return [];
  const steps: string[] = [];
  let state: string = lifecycle.initial;
  const visited = new Set([state]);
  for (;;) {
    const next = Object.entries(lifecycle.actions).find(
      ([, spec]) =>
        (spec.from as readonly string[]).includes(state) &&
        !visited.has(spec.to) &&
        spec.to !== 'annule',
    );
    if (!next) break;
    steps.push(next[0]);
    state = next[1].to;
    visited.add(state);
  }
  if (lifecycle.initial === 'actif') return n % 4 === 3 ? steps : [];
  return steps.slice(0, n % (steps.length + 1));
}
