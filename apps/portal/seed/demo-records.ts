import { EXAMPLE_COMPANY, type Resource, referencedResources } from '@erp/contract';
import type pg from 'pg';
import { installBooks } from '../src/books';
import { updateCompany } from '../src/einvoicing/company';
import type { ActorRef } from '../src/http/context';
import { type RecordOperation, runOperation, type TenantDatabase } from '../src/resources';
import { closeFirstMonth, installedBooks } from './books';
import {
  DEMO_YEAR,
  type SeedContext,
  type SeededRecord,
  type SeedOverrides,
  type SeedReads,
  type SeedWalks,
  seedDates,
  seedOverrides,
  seedReads,
  seedWalks,
} from './catalogue';
import { fakerFor } from './fake';
import { CONVERT, movesStock, openingInventory, type SeedConversion } from './goods';
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
  reads: SeedReads = seedReads,
  walks: SeedWalks = seedWalks,
): Promise<number> {
  return tenantDb.transaction(tenantId, async (client) => {
    const first = resources[0];
    if (first && (await client.query(`SELECT 1 FROM ${first.table} LIMIT 1`)).rowCount) return 0;
    // The history names who made each record: the seed acts as the tenant's first member.
    if (!members[0]) throw new Error('seeding records needs a member of the tenant to act as');
    // Documents post as they are issued (SPEC §17): the tenant needs its books, which
    // provisioning installs and the demo tenant, made by the seed itself, gets here. Its
    // fiscal years are the demo's (DEMO_YEAR and the next), whatever today is: the seed's dates are
    // fixed, so its books must be too.
    await installBooks(client, tenantId, new Date(Date.UTC(DEMO_YEAR, 0, 1)));
    // The seller of its e-invoices (SPEC §20): Settings → Company.
    await updateCompany(client, tenantId, DEMO_COMPANY);
    const actor = { type: 'user', id: members[0] } as const;
    const refs = new Map<string, readonly string[]>([['user', members]]);
    const records = new Map<string, SeededRecord[]>();
    const byName = new Map(resources.map((r) => [r.name, r]));
    // The chart, journals, years and periods installBooks made are the ones the documents post
    // to: overrides find them (the 411000 account, the sales journal) among the seeded records,
    // and the seed makes its own records beside them, never a second chart.
    const installed = await installedBooks(client, tenantId, resources, actor);
    let created = 0;
    let opened = false;
    for (const resource of seedOrder(resources, reads)) {
      // The stock the year's movements take, before the first of them (SPEC §18).
      const adjustments = byName.get('stock_adjustment');
      if (!opened && movesStock(resource) && adjustments) {
        opened = true;
        // Besides the records counted: the opening inventory, one adjustment per warehouse.
        await openingInventory(client, tenantId, records, adjustments, actor);
      }
      // Filled as records are made: a record may refer to earlier ones of its own resource
      // (a parent account, a manager), and overrides see them too.
      const made: SeededRecord[] = [...(installed.get(resource.name) ?? [])];
      const madeIds: string[] = made.map((r) => r.id);
      records.set(resource.name, made);
      refs.set(resource.name, madeIds);
      const make = async (n: number, steps: readonly string[], body: Record<string, unknown>) => {
        // Through the operation the API's routes run, so what a document posts is posted by the
        // posting engine and an allocation settles (and writes off) as it does for a client.
        const operate = (operation: SeedStep) =>
          run(client, tenantId, { resource, ...operation } as RecordOperation, actor).catch(
            (error: unknown) => {
              // Which record and step the books refused, for whoever changes the seed next.
              if (error instanceof Error)
                error.message = `${resource.name} #${n} ${'action' in operation ? operation.action : 'create'}: ${error.message}`;
              throw error;
            },
          );
        let record = await operate(firstStep(body));
        // A draft a conversion made takes the rest of the override's fields (its dates, its
        // carrier…) as a client completes it, by a PATCH.
        if (CONVERT in body) {
          const { [CONVERT]: _, lines: __, ...rest } = body;
          record = await operate({
            kind: 'update',
            id: record.id,
            body: Object.fromEntries(Object.entries(rest).filter(([k]) => k in resource.fields)),
            expectedVersion: null,
          });
        }
        for (const action of steps)
          record = await operate({ kind: 'action', id: record.id, action });
        // What a target counted moved its source (its counts, its status): later overrides
        // see the source as it now is.
        if (CONVERT in body)
          await refreshSource(client, tenantId, body[CONVERT] as SeedConversion, records, actor);
        made.push(record);
        madeIds.push(record.id);
        created++;
        // A settlement changes what it settles (amount due, status, allocated): later
        // overrides see the documents as they now are.
        if (resource.ledgerRole === 'allocation')
          await refreshSettled(client, tenantId, resource, record, records, byName, actor);
      };
      // A dated document's records are planned first (overrides see the planned ones), then
      // made in the order of their dates: numbered and posted chronologically, as a
      // bookkeeper enters them.
      const dated = seedDates[resource.name];
      const planned: { n: number; steps: readonly string[]; body: Record<string, unknown> }[] = [];
      for (let n = 0; n < perResource; n++) {
        const steps = walks[resource.name]?.(n) ?? walk(resource, n);
        const status = reached(resource, steps);
        const ctx = context(resource, n, perResource, records, status);
        const body = { ...sampleBody(resource, n, refs), ...overrides[resource.name]?.(ctx) };
        if (!dated) await make(n, steps, body);
        else {
          planned.push({ n, steps, body });
          made.push({ ...body, id: `planned-${n}`, status });
        }
      }
      if (dated) {
        made.splice(made.length - planned.length);
        planned.sort((a, b) => String(a.body[dated]).localeCompare(String(b.body[dated])));
        for (const { n, steps, body } of planned) await make(n, steps, body);
      }
    }
    // Once its documents are posted, the fiscal year's first month is closed (SPEC §17).
    if (records.has('accounting_period'))
      await closeFirstMonth(client, tenantId, byName.get('accounting_period')!, records, actor);
    return created;
  });
}

/** What the seed does to a record: make it, or move it along its lifecycle. */
type SeedStep =
  | { kind: 'create'; body: Record<string, unknown> }
  | {
      kind: 'convert';
      id: string;
      action: string;
      body: { lines?: { line_id: string; quantity: string }[] };
    }
  | { kind: 'update'; id: string; body: Record<string, unknown>; expectedVersion: null }
  | { kind: 'action'; id: string; action: string };

/**
 * How the record is made: created, or, when the override names a source (`[CONVERT]`), made
 * from it by the conversion (SPEC §18), so that it counts on the source's lines.
 */
function firstStep(body: Record<string, unknown>): SeedStep {
  const from = body[CONVERT] as SeedConversion | undefined;
  if (!from) return { kind: 'create', body };
  return {
    kind: 'convert',
    resource: from.source,
    id: from.id,
    action: from.conversion,
    body: from.lines ? { lines: from.lines } : {},
  } as SeedStep;
}

/** Runs one operation of the engine and answers the record it wrote. */
async function run(
  client: pg.PoolClient,
  tenantId: string,
  operation: RecordOperation,
  actor: ActorRef,
): Promise<SeededRecord> {
  const result = await runOperation(client, tenantId, operation, actor);
  return JSON.parse(result.body!) as SeededRecord;
}

/** Re-reads a conversion's source, in place in `records`. */
async function refreshSource(
  client: pg.PoolClient,
  tenantId: string,
  from: SeedConversion,
  records: Map<string, SeededRecord[]>,
  actor: ActorRef,
): Promise<void> {
  const pool = records.get(from.source.name);
  const at = pool?.findIndex((r) => r.id === from.id) ?? -1;
  if (!pool || at < 0) return;
  pool[at] = await run(
    client,
    tenantId,
    { resource: from.source, kind: 'get', id: from.id },
    actor,
  );
}

/** Re-reads the records an allocation refers to, in place in `records`. */
async function refreshSettled(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  allocation: SeededRecord,
  records: Map<string, SeededRecord[]>,
  byName: ReadonlyMap<string, Resource>,
  actor: ActorRef,
): Promise<void> {
  for (const [field, spec] of Object.entries(resource.fields)) {
    if (spec.type !== 'reference' || !allocation[field]) continue;
    const target = byName.get(spec.resource);
    const pool = records.get(spec.resource);
    const at = pool?.findIndex((r) => r.id === allocation[field]) ?? -1;
    if (!target || !pool || at < 0) continue;
    pool[at] = await run(
      client,
      tenantId,
      { resource: target, kind: 'get', id: String(allocation[field]) },
      actor,
    );
  }
}

/**
 * The order records are made in: each resource after those it refers to and those its override
 * reads; otherwise as given (the catalogue's order).
 */
export function seedOrder(resources: readonly Resource[], reads: SeedReads): Resource[] {
  const names = new Set(resources.map((r) => r.name));
  const needs = new Map(
    resources.map((r) => [
      r.name,
      [...referencedResources(r), ...(reads[r.name] ?? [])].filter(
        (name) => name !== r.name && names.has(name),
      ),
    ]),
  );
  const ordered: Resource[] = [];
  const placed = new Set<string>();
  while (ordered.length < resources.length) {
    const next = resources.find(
      (r) => !placed.has(r.name) && needs.get(r.name)!.every((name) => placed.has(name)),
    );
    if (!next) throw new Error('seed: overrides read resources that depend on them (a cycle)');
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** The demo tenant's company (Settings → Company), the contract's example. */
export const DEMO_COMPANY = EXAMPLE_COMPANY;

function context(
  resource: Resource,
  n: number,
  count: number,
  records: ReadonlyMap<string, readonly SeededRecord[]>,
  status: string | undefined,
): SeedContext {
  return {
    n,
    count,
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

/** States a record ends in when things did not go as planned. */
const SETBACKS = new Set([
  'annule',
  'rejete',
  'refuse',
  'perdu',
  'archive',
  'suspendu',
  'resilie',
  'expire',
  'en_attente',
  'cede',
]);

/**
 * The lifecycle actions the n-th record goes through. Most records walk the longest path that
 * avoids setbacks (cancellations, rejections, archiving, holds) and never comes back to a
 * state, preferring among paths as long one that ends where nothing more happens (work is
 * completed), stopping at n % (length + 1) steps, so every list shows each stage; one record in
 * seven then takes a setback where one is possible (a cancelled order, an archived product).
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
      if (visited.has(spec.to) || SETBACKS.has(spec.to)) continue;
      // The states an order's goods lead to are reached by its deliveries, receipts and
      // invoices, made from it with their own dates, not by its shortcuts (dated today).
      if (spec.shortcut) continue;
      visit(spec.to, [...steps, action], new Set([...visited, spec.to]));
    }
  };
  visit(lifecycle.initial, [], new Set([lifecycle.initial]));
  const steps = best.steps.slice(0, n % (best.steps.length + 1));
  if (n % 5 === 4) {
    const state = reached(resource, steps)!;
    const setback = actions.find(
      ([, spec]) => (spec.from as readonly string[]).includes(state) && SETBACKS.has(spec.to),
    );
    if (setback) steps.push(setback[0]);
  }
  return steps;
}
