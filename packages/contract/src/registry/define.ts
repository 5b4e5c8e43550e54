import {
  COUNTED_QUANTITIES,
  type ConversionDeclaration,
  type ProgressRule,
  type ReservationDeclaration,
  type ShortcutDeclaration,
  type StockEffect,
} from '../goods/flow';
import type { PostingRule } from '../ledger/postings';
import type { ModuleName } from '../modules';
import { allChangeEventTypes, type FeedEventTypes, GENERIC_CHANGES } from './change-events';
import { decimal, enumOf, type Field, money, text, timestamp, USER, uuid } from './fields';
import { MAX_NAME, RESERVED_FIELDS, RESERVED_PATHS, SQL_RESERVED } from './reserved-names';
import { isStatus, type Status } from './statuses';

/** A lifecycle transition: `POST /{id}/<action>` moves a record from one of `from` to `to`. */
export interface ActionDeclaration {
  from: readonly Status[];
  to: Status;
  description?: string;
  /**
   * An approval-step event this action records besides `status_changed` (e.g. `approved`); it
   * must be one of the resource's `events`.
   */
  emits?: string;
  /** A read-only timestamp the action sets (`posted_at`: the moment a posting becomes final). */
  stamps?: 'posted_at';
  /**
   * Fields that must be set before the action runs (a draft a conversion made may lack what its
   * source could not know: a supplier's invoice number), else 422 naming them.
   */
  requires?: readonly string[];
  /** A shortcut (SPEC §18): the action makes a conversion and runs the target's action. */
  shortcut?: ShortcutDeclaration;
}

/** A lifecycle; `A` is the union of its action names, kept literal so event types can be derived. */
export interface LifecycleDeclaration<A extends string = string> {
  initial: Status;
  /** States in which PATCH and DELETE are allowed (default: the initial state only). */
  editable?: readonly Status[];
  actions: Record<A, ActionDeclaration>;
  /**
   * A document that allocations settle (SPEC §17): from `from`, its status follows its read-only
   * `amount_due_cents`: `partial` while part of it is due, `full` at 0, back when an allocation
   * is deleted. No action sets these states.
   */
  settlement?: { from: Status; partial: Status; full: Status };
}

/** One business resource, declared once: table, routes, OpenAPI, sdk types and events follow. */
export interface ResourceDeclaration {
  /** Singular snake_case: the event prefix (`sales_order.created`). */
  name: string;
  /** Kebab-case plural: the path (`/api/v1/sales-orders`). */
  path: string;
  module: ModuleName;
  /** PascalCase schema name in the OpenAPI document; derived from `name` when omitted. */
  schemaName?: string;
  description: string;
  /** Document numbers such as `SO-2026-00001`, per tenant and year. */
  numbering?: { prefix: string };
  fields: Record<string, Field>;
  /** Adds read-only `subtotal_cents`, `tax_cents`, `total_cents` computed from a `lines` field. */
  totalsFrom?: string;
  lifecycle?: LifecycleDeclaration;
  /**
   * Its part in the books (SPEC §17), whose rules the database keeps: `entry` (journal entries:
   * a posted one balances and is final, its lines are the ledger), `payment` (read-only
   * `allocated_cents` and `unallocated_cents`, never more than its amount), `allocation`
   * (payment allocations: they settle documents and payments).
   */
  ledgerRole?: 'entry' | 'payment' | 'allocation';
  /**
   * What its lifecycle actions post to the ledger (SPEC §17): read by the one posting engine,
   * which also reverses a rule's entry on its `reverse` action.
   */
  postings?: readonly PostingRule[];
  /** The drafts of other documents it converts into (SPEC §18); its lines count what they took. */
  conversions?: readonly ConversionDeclaration[];
  /** Statuses that follow the goods (SPEC §18). */
  progress?: readonly ProgressRule[];
  /** What its actions move in stock (SPEC §18), and post. */
  stock?: readonly StockEffect[];
  /** A sales order's reservation of its goods (SPEC §18). */
  reservation?: ReservationDeclaration;
  /**
   * Written by the engine only (the stock ledger, the stock levels): list, export and get, no
   * write route; not in the catalogue's generated schema (its table is a migration's own).
   */
  readOnly?: boolean;
  /**
   * The events this resource records (SPEC §7: only the 27 of the catalogue): `created`,
   * `status_changed` (needs a lifecycle), and approval steps its actions `emits`.
   */
  events?: readonly string[];
}

/**
 * A declaration with everything derived from it; `E` is the union of its catalogue (webhook)
 * event names, `F` the union of every event type its changes record in the feed.
 */
export interface Resource<E extends string = string, F extends string = string>
  extends ResourceDeclaration {
  schemaName: string;
  table: string;
  /** Fields the server sets: id, number, status, totals, version, timestamps. */
  readOnlyFields: Record<string, Field>;
  /** Every field of a record as returned: the read-only ones first, then the declared ones. */
  allFields: Record<string, Field>;
  states: string[];
  editableStates: string[];
  /** Catalogue event names recorded by this resource, as literal types. */
  eventNames: E[];
  /**
   * Every event type this resource's changes record (the feed, SPEC §12): its catalogue names
   * and the generic `<name>.created|updated|deleted|<action>` (see `changeEventTypes`).
   */
  feedEventNames: F[];
}

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/**
 * Checks a declaration and derives its system fields, states and events. Throws on mistakes.
 * The name and the events are inferred as literals, so `eventNames` is typed `'quote.created' |
 * 'quote.status_changed'` and the catalogue's event names are a union the compiler knows.
 */
export function defineResource<
  const N extends string,
  const E extends readonly string[] = [],
  const A extends string = never,
>(
  declaration: ResourceDeclaration & { name: N; events?: E; lifecycle?: LifecycleDeclaration<A> },
): Resource<`${N}.${E[number]}`, FeedEventTypes<N, E[number], A>> {
  const { name, path, fields, lifecycle, numbering, totalsFrom } = declaration;
  const fail = (message: string) => {
    throw new Error(`resource ${name}: ${message}`);
  };
  if (!SNAKE.test(name) || name.length > MAX_NAME)
    fail(`name must be snake_case, at most ${MAX_NAME} characters`);
  if (!KEBAB.test(path) || path.length > MAX_NAME)
    fail(`path must be kebab-case, at most ${MAX_NAME} characters`);
  if (RESERVED_PATHS.has(path)) fail(`path ${path} is taken by the platform`);
  if (name === USER) fail(`name ${USER} is taken by the platform's users`);
  for (const [field, spec] of Object.entries(fields)) {
    if (!SNAKE.test(field) || field.length > MAX_NAME)
      fail(`field ${field} must be snake_case, at most ${MAX_NAME} characters`);
    if (RESERVED_FIELDS.has(field)) fail(`field ${field} is reserved`);
    if (SQL_RESERVED.has(field)) fail(`field ${field} is an SQL keyword`);
    if (spec.sortable && !spec.required) fail(`sortable field ${field} must be required`);
    if (spec.filterable && (spec.type === 'lines' || spec.type === 'json'))
      fail(`${spec.type} field ${field} cannot be filterable`);
  }
  if (totalsFrom) {
    const source = fields[totalsFrom];
    if (source?.type !== 'lines') fail(`totalsFrom ${totalsFrom} must name a lines field`);
    else {
      const { quantity, unit_price_cents, tax_rate } = source.fields;
      if (quantity?.type !== 'decimal' || !quantity.required)
        fail('totals need a required decimal quantity on lines');
      if (unit_price_cents?.type !== 'money' || !unit_price_cents.required)
        fail('totals need a required money unit_price_cents on lines');
      if (tax_rate && tax_rate.type !== 'decimal')
        fail('tax_rate on lines must be a decimal (percent)');
    }
  }

  const states = lifecycle ? collectStates(lifecycle, fail) : [];
  for (const state of lifecycle?.editable ?? [])
    if (!states.includes(state)) fail(`editable state ${state} is not a state`);
  for (const [action, spec] of Object.entries(lifecycle?.actions ?? {})) {
    if (
      spec.emits &&
      (!SNAKE.test(spec.emits) || spec.emits === 'created' || spec.emits === 'status_changed')
    ) {
      fail(
        `action ${action} emits ${spec.emits}: a snake_case name other than created and status_changed`,
      );
    }
  }
  const readOnlyFields: Record<string, Field> = {
    id: uuid({
      required: true,
      filterable: true,
      sortable: true,
      description: 'UUID, time-ordered (v7).',
    }),
  };
  if (numbering)
    readOnlyFields.number = text({
      required: true,
      filterable: true,
      sortable: true,
      description: `Document number, e.g. ${numbering.prefix}-2026-00001.`,
    });
  if (lifecycle)
    readOnlyFields.status = enumOf(states as [string, ...string[]], {
      required: true,
      filterable: true,
      sortable: true,
      description: 'Changes only through the lifecycle actions.',
    });
  if (totalsFrom) {
    for (const f of ['subtotal_cents', 'tax_cents', 'total_cents'])
      readOnlyFields[f] = money({ required: true, filterable: true, sortable: true });
  }
  const actions = Object.values(lifecycle?.actions ?? {});
  if (actions.some((a) => a.stamps === 'posted_at'))
    readOnlyFields.posted_at = timestamp({
      filterable: true,
      sortable: true,
      description: 'When it was posted; set once, never changed.',
    });
  if (lifecycle?.settlement) {
    if (!totalsFrom) fail('a settled document needs totals');
    readOnlyFields.amount_due_cents = money({
      required: true,
      filterable: true,
      sortable: true,
      description: 'What is still to be paid: the total less the allocations settling it.',
    });
  }
  if (declaration.ledgerRole === 'payment') {
    readOnlyFields.allocated_cents = money({
      required: true,
      filterable: true,
      sortable: true,
      description: 'How much of it allocations apply to documents.',
    });
    readOnlyFields.unallocated_cents = money({
      required: true,
      filterable: true,
      sortable: true,
      description: 'What is left to allocate: `amount_cents` less `allocated_cents`.',
    });
  }
  readOnlyFields.created_at = timestamp({ required: true, filterable: true, sortable: true });
  readOnlyFields.updated_at = timestamp({ required: true, filterable: true, sortable: true });

  const events: readonly string[] = declaration.events ?? [];
  if (new Set(events).size !== events.length) fail('an event is listed twice');
  for (const event of events) {
    if (!SNAKE.test(event)) fail(`event ${event} must be snake_case`);
    if (event === 'status_changed' && !lifecycle) fail('status_changed events need a lifecycle');
    const emitted = Object.values(lifecycle?.actions ?? {}).some((a) => a.emits === event);
    if (event !== 'created' && event !== 'status_changed' && !emitted)
      fail(`event ${event} is recorded by no action (emits)`);
  }
  for (const [action, spec] of Object.entries(lifecycle?.actions ?? {}))
    if (spec.emits && !events.includes(spec.emits))
      fail(`action ${action} emits ${spec.emits}, which is not in events`);
  for (const action of Object.keys(lifecycle?.actions ?? {}))
    if (GENERIC_CHANGES.has(action) || events.includes(action))
      fail(`action ${action} would record the same event type as another change`);
  const eventNames = events.map((event) => `${name}.${event}` as `${N}.${E[number]}`);
  for (const rule of declaration.postings ?? []) checkPosting(rule, declaration, fail);
  for (const effect of declaration.stock ?? []) checkStock(effect, declaration, fail);
  const ownFields = withCountedLines(fields, checkConversions(declaration, fail));

  const resource = {
    ...declaration,
    fields: ownFields,
    schemaName: declaration.schemaName ?? pascalCase(name),
    table: path.replace(/-/g, '_'),
    readOnlyFields,
    allFields: { ...readOnlyFields, ...ownFields },
    states,
    editableStates: lifecycle ? [...(lifecycle.editable ?? [lifecycle.initial])] : [],
    eventNames,
    feedEventNames: [] as FeedEventTypes<N, E[number], A>[],
  };
  resource.feedEventNames = allChangeEventTypes(resource) as FeedEventTypes<N, E[number], A>[];
  return resource;
}

function checkPosting(
  rule: PostingRule,
  declaration: ResourceDeclaration,
  fail: (m: string) => never,
): void {
  const actions = declaration.lifecycle?.actions ?? {};
  for (const action of [rule.action, rule.reverse])
    if (!(action in actions)) fail(`posting action ${action} is not a lifecycle action`);
  const fields = [rule.date, rule.journal.field, rule.party.field, rule.due, rule.when?.field];
  for (const field of fields)
    if (field !== undefined && !(field in declaration.fields))
      fail(`posting field ${field} is not a field`);
  const amounts = rule.legs.map((leg) => leg.amount);
  if (amounts.some((a) => a !== 'amount') && !declaration.totalsFrom)
    fail('a posting of totals, nets or taxes needs totalsFrom');
  for (const leg of rule.legs)
    if (!leg.account.setting && leg.account.override !== 'journal')
      fail('a posting leg names a setting or its journal');
}

/** The conversions' checks; answers the quantities the source's lines count. */
function checkConversions(
  declaration: ResourceDeclaration,
  fail: (m: string) => never,
): CountedQuantityName[] {
  const actions = declaration.lifecycle?.actions ?? {};
  const counted = new Set<CountedQuantityName>();
  const conversions = declaration.conversions ?? [];
  if (conversions.length && declaration.fields.lines?.type !== 'lines')
    fail('a converted document needs a lines field');
  for (const c of conversions) {
    if (!SNAKE.test(c.name) || !c.name.startsWith('make_'))
      fail(`conversion ${c.name} must be snake_case, starting make_`);
    if (c.name in actions) fail(`conversion ${c.name} is also a lifecycle action`);
    if (!COUNTED_QUANTITIES.includes(c.counts)) fail(`conversion ${c.name} counts ${c.counts}`);
    counted.add(c.counts);
  }
  for (const [action, spec] of Object.entries(actions)) {
    if (!spec.shortcut) continue;
    if (!conversions.some((c) => c.name === spec.shortcut!.conversion))
      fail(`shortcut ${action} names no conversion of the resource`);
  }
  for (const rule of declaration.progress ?? [])
    if (!counted.has(rule.when)) fail(`progress to ${rule.status} follows an uncounted quantity`);
  if (declaration.reservation && !counted.has(declaration.reservation.consumedBy))
    fail('a reservation is consumed by a counted quantity');
  return [...counted];
}

type CountedQuantityName = (typeof COUNTED_QUANTITIES)[number];

/** The lines field with the counted quantities read-only on each line. */
function withCountedLines(
  fields: Record<string, Field>,
  counted: readonly CountedQuantityName[],
): Record<string, Field> {
  const lines = fields.lines;
  if (!counted.length || lines?.type !== 'lines') return fields;
  const readOnly = { ...lines.readOnly };
  for (const name of counted)
    readOnly[name] = decimal({
      required: true,
      min: 0,
      description: `What this line's targets took (SPEC §18): at most its \`quantity\`.`,
    });
  return { ...fields, lines: { ...lines, readOnly } };
}

function checkStock(
  effect: StockEffect,
  declaration: ResourceDeclaration,
  fail: (m: string) => never,
): void {
  const actions = declaration.lifecycle?.actions ?? {};
  for (const action of [effect.action, effect.reverse])
    if (action !== undefined && !(action in actions))
      fail(`stock action ${action} is not a lifecycle action`);
  if (effect.lines && declaration.fields[effect.lines]?.type !== 'lines')
    fail(`stock lines ${effect.lines} is not a lines field`);
  if (declaration.fields[effect.date]?.type !== 'date')
    fail(`stock date ${effect.date} is not a date field`);
  const lines = effect.lines ? declaration.fields[effect.lines] : undefined;
  if (effect.unless && (lines?.type !== 'lines' || lines.fields[effect.unless]?.type !== 'boolean'))
    fail(`stock unless ${effect.unless} is not a boolean field of the lines`);
}

function collectStates(lifecycle: LifecycleDeclaration, fail: (m: string) => never): string[] {
  if (!isStatus(lifecycle.initial)) fail(`state ${lifecycle.initial} is not in the vocabulary`);
  const states = new Set<string>([lifecycle.initial]);
  for (const [action, spec] of Object.entries(lifecycle.actions)) {
    if (!SNAKE.test(action)) fail(`action ${action} must be snake_case`);
    // A history entry's action is `create`, `update`, `delete` or the lifecycle action's name.
    if (['create', 'update', 'delete'].includes(action))
      fail(`action ${action} would read as a record change in the history`);
    if (spec.from.length === 0) fail(`action ${action} has no source state`);
    for (const s of [...spec.from, spec.to]) {
      if (!isStatus(s)) fail(`state ${s} is not in the status vocabulary (statuses.ts)`);
      states.add(s);
    }
  }
  const settlement = lifecycle.settlement;
  if (settlement) {
    if (!states.has(settlement.from)) fail(`settlement from ${settlement.from} is not a state`);
    for (const s of [settlement.partial, settlement.full]) {
      if (!isStatus(s)) fail(`state ${s} is not in the status vocabulary (statuses.ts)`);
      states.add(s);
    }
  }
  return [...states];
}

export function pascalCase(snake: string): string {
  return snake.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}

/**
 * A registry: every resource, by name, checked for dangling references (top-level and in
 * lines). A line cannot name a user: removing a member nulls the columns that name them, and
 * nothing would reach inside line items.
 */
export function createRegistry(resources: readonly Resource[]): ReadonlyMap<string, Resource> {
  const byName = new Map<string, Resource>();
  const paths = new Set<string>();
  for (const r of resources) {
    if (byName.has(r.name)) throw new Error(`duplicate resource ${r.name}`);
    if (paths.has(r.path)) throw new Error(`duplicate path ${r.path}`);
    byName.set(r.name, r);
    paths.add(r.path);
  }
  for (const r of resources) for (const c of r.conversions ?? []) checkTarget(r, c, byName);
  for (const r of resources) {
    for (const [field, spec] of Object.entries(r.fields)) {
      if (spec.type === 'reference' && spec.resource !== USER && !byName.has(spec.resource)) {
        throw new Error(
          `resource ${r.name}: field ${field} references unknown resource ${spec.resource}`,
        );
      }
      if (spec.type !== 'lines') continue;
      for (const [key, line] of Object.entries(spec.fields)) {
        if (line.type === 'reference' && !byName.has(line.resource)) {
          throw new Error(
            `resource ${r.name}: field ${field}[].${key} references ${line.resource === USER ? 'a user (not supported in lines)' : `unknown resource ${line.resource}`}`,
          );
        }
      }
    }
  }
  return byName;
}

/** A conversion's target: its link to the source, its counting actions, its lines and dates. */
function checkTarget(
  source: Resource,
  c: ConversionDeclaration,
  byName: ReadonlyMap<string, Resource>,
): void {
  const fail = (m: string) => {
    throw new Error(`resource ${source.name}: conversion ${c.name}: ${m}`);
  };
  const target = byName.get(c.target);
  if (!target)
    throw new Error(`resource ${source.name}: conversion ${c.name}: unknown target ${c.target}`);
  const link = target.fields[c.link];
  if (link?.type !== 'reference' || link.resource !== source.name)
    fail(`${c.target}.${c.link} does not reference ${source.name}`);
  for (const action of [c.countedBy, c.uncountedBy])
    if (action !== undefined && !(action in (target.lifecycle?.actions ?? {})))
      fail(`${c.target} has no action ${action}`);
  const lines = target.fields.lines;
  if (lines?.type !== 'lines' || !lines.readOnly?.source_line_id)
    fail(`${c.target}'s lines do not name their source line`);
  for (const field of [...(c.today ?? []), ...(c.due ? [c.due.field] : [])])
    if (target.fields[field]?.type !== 'date') fail(`${c.target}.${field} is not a date`);
  for (const field of Object.keys(c.defaults ?? {}))
    if (!(field in target.fields)) fail(`${c.target} has no field ${field}`);
}

/**
 * The resources in dependency order, computed from their references (top-level and in lines):
 * every resource after those it refers to, so tables are created in this order and dropped in
 * reverse, and the seed has something to refer to. Ties keep the given order. A cycle between
 * two resources (possible only through optional references) is refused: composite foreign keys
 * would need deferred constraints and the seed an update pass.
 */
export function inDependencyOrder<R extends Resource>(resources: readonly R[]): R[] {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const dependencies = new Map(
    resources.map((r) => [r.name, new Set(referencedResources(r).filter((n) => n !== r.name))]),
  );
  const ordered: R[] = [];
  const placed = new Set<string>();
  while (ordered.length < resources.length) {
    const next = resources.find(
      (r) =>
        !placed.has(r.name) &&
        [...dependencies.get(r.name)!].every((d) => placed.has(d) || !byName.has(d)),
    );
    if (!next) {
      const stuck = resources.filter((r) => !placed.has(r.name)).map((r) => r.name);
      throw new Error(`resources refer to each other in a cycle: ${stuck.join(', ')}`);
    }
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** The names of the resources a resource refers to (users excluded). */
export function referencedResources(resource: Resource): string[] {
  const names = new Set<string>();
  for (const field of Object.values(resource.fields)) {
    if (field.type === 'reference' && field.resource !== USER) names.add(field.resource);
    if (field.type === 'lines')
      for (const line of Object.values(field.fields))
        if (line.type === 'reference') names.add(line.resource);
  }
  return [...names];
}
