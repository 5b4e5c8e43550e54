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
      for (let n = 0; n < perResource; n++) {
        const steps = walk(resource, n);
        const body = {
          ...sampleBody(resource, n, refs),
          ...overrides[resource.name]?.(context(resource, n, records, reached(resource, steps))),
        };
        const written = await insertRecord(client, resource, tenantId, body);
        let record = JSON.parse(written.json) as SeededRecord;
        for (const action of steps) {
          const moved = await transitionRecord(client, resource, tenantId, record.id, action);
          record = JSON.parse(moved.json) as SeededRecord;
        }
        made.push(record);
        created++;
      }
      records.set(resource.name, made);
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
  status: string | undefined,
): SeedContext {
  return {
    n,
    status,
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

/** The status a record of `resource` is in after `steps`, from its initial one. */
function reached(resource: Resource, steps: readonly string[]): string | undefined {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return undefined;
  return steps.reduce<string>(
    (state, action) => lifecycle.actions[action]?.to ?? state,
    lifecycle.initial,
  );
}

/**
 * The n-th record takes the first n % (k+1) of the k steps of the longest walk through its
 * lifecycle that never cancels nor comes back to a state, preferring, among walks as long,
 * one that ends where nothing more happens: work is completed rather than left on hold
 * (planned → started → done, not planned → started → on hold), so every list shows records
 * at the end of their lifecycle. Ties keep the declared order of the actions.
 */
function walk(resource: Resource, n: number): string[] {
  const lifecycle = resource.lifecycle;
  if (!lifecycle) return [];
  const actions = Object.entries(lifecycle.actions);
  const isFinal = (state: string) =>
    !actions.some(([, spec]) => (spec.from as readonly string[]).includes(state));
  let best = { steps: [] as string[], final: isFinal(lifecycle.initial) };
  const visit = (state: string, steps: string[], visited: ReadonlySet<string>) => {
    const final = isFinal(state);
    if (
      steps.length > best.steps.length ||
      (steps.length === best.steps.length && final && !best.final)
    )
      best = { steps, final };
    for (const [action, spec] of actions) {
      if (!(spec.from as readonly string[]).includes(state)) continue;
      if (visited.has(spec.to) || spec.to === 'annule') continue;
      visit(spec.to, [...steps, action], new Set([...visited, spec.to]));
    }
  };
  visit(lifecycle.initial, [], new Set([lifecycle.initial]));
  return best.steps.slice(0, n % (best.steps.length + 1));
}
