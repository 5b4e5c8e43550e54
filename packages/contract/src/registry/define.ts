import type { ModuleName } from '../modules';
import { enumOf, type Field, money, text, timestamp, USER, uuid } from './fields';

/** A lifecycle transition: `POST /{id}/<action>` moves a record from one of `from` to `to`. */
export interface ActionDeclaration {
  from: readonly string[];
  to: string;
  description?: string;
  /** An approval-step event this action records besides `status_changed` (e.g. `approved`). */
  emits?: string;
}

export interface LifecycleDeclaration {
  initial: string;
  /** States in which PATCH and DELETE are allowed (default: the initial state only). */
  editable?: readonly string[];
  actions: Record<string, ActionDeclaration>;
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
  /** Which catalogue events this resource records. */
  events?: { created?: boolean; statusChanged?: boolean };
}

/** A declaration with everything derived from it. */
export interface Resource extends ResourceDeclaration {
  schemaName: string;
  table: string;
  /** Fields the server sets: id, number, status, totals, version, timestamps. */
  readOnlyFields: Record<string, Field>;
  /** Every field of a record as returned: the read-only ones first, then the declared ones. */
  allFields: Record<string, Field>;
  states: string[];
  editableStates: string[];
  /** Catalogue event names recorded by this resource. */
  eventNames: string[];
}

const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** System tables and route prefixes a resource must not take. */
const RESERVED_PATHS = new Set([
  'auth',
  'me',
  'settings',
  'internal',
  'public',
  'health',
  'ready',
  'openapi-json',
  'plans',
  'tenants',
  'subscriptions',
  'users',
  'memberships',
  'refresh-tokens',
  'api-keys',
  'rate-limit-buckets',
  'events',
  'idempotency-keys',
  'document-sequences',
]);
/** SQL keywords PostgreSQL reserves: unusable as bare column names. */
const SQL_RESERVED = new Set([
  'all',
  'analyse',
  'analyze',
  'and',
  'any',
  'array',
  'as',
  'asc',
  'asymmetric',
  'both',
  'case',
  'cast',
  'check',
  'collate',
  'column',
  'constraint',
  'create',
  'current_catalog',
  'current_date',
  'current_role',
  'current_time',
  'current_timestamp',
  'current_user',
  'default',
  'deferrable',
  'desc',
  'distinct',
  'do',
  'else',
  'end',
  'except',
  'false',
  'fetch',
  'for',
  'foreign',
  'from',
  'grant',
  'group',
  'having',
  'in',
  'initially',
  'intersect',
  'into',
  'lateral',
  'leading',
  'limit',
  'localtime',
  'localtimestamp',
  'not',
  'null',
  'offset',
  'on',
  'only',
  'or',
  'placing',
  'primary',
  'references',
  'returning',
  'select',
  'session_user',
  'some',
  'symmetric',
  'table',
  'then',
  'to',
  'trailing',
  'true',
  'union',
  'unique',
  'user',
  'using',
  'variadic',
  'when',
  'where',
  'window',
  'with',
]);
/** Leaves room for derived names (`<table>_tenant_id_<column>_fkey`) within PostgreSQL's 63 bytes. */
const MAX_NAME = 30;
const RESERVED = new Set([
  'id',
  'tenant_id',
  'number',
  'status',
  'version',
  'created_at',
  'updated_at',
  'subtotal_cents',
  'tax_cents',
  'total_cents',
  'order',
  'page_size',
  'cursor',
]);

/** Checks a declaration and derives its system fields, states and events. Throws on mistakes. */
export function defineResource(declaration: ResourceDeclaration): Resource {
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
    if (RESERVED.has(field)) fail(`field ${field} is reserved`);
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
  readOnlyFields.created_at = timestamp({ required: true, filterable: true, sortable: true });
  readOnlyFields.updated_at = timestamp({ required: true, filterable: true, sortable: true });

  const eventNames: string[] = [];
  if (declaration.events?.created) eventNames.push(`${name}.created`);
  if (declaration.events?.statusChanged) {
    if (!lifecycle) fail('statusChanged events need a lifecycle');
    eventNames.push(`${name}.status_changed`);
  }
  for (const action of Object.values(lifecycle?.actions ?? {})) {
    if (action.emits && !eventNames.includes(`${name}.${action.emits}`))
      eventNames.push(`${name}.${action.emits}`);
  }

  return {
    ...declaration,
    schemaName: declaration.schemaName ?? pascalCase(name),
    table: path.replace(/-/g, '_'),
    readOnlyFields,
    allFields: { ...readOnlyFields, ...fields },
    states,
    editableStates: lifecycle ? [...(lifecycle.editable ?? [lifecycle.initial])] : [],
    eventNames,
  };
}

function collectStates(lifecycle: LifecycleDeclaration, fail: (m: string) => never): string[] {
  const states = new Set([lifecycle.initial]);
  for (const [action, spec] of Object.entries(lifecycle.actions)) {
    if (!SNAKE.test(action)) fail(`action ${action} must be snake_case`);
    if (spec.from.length === 0) fail(`action ${action} has no source state`);
    for (const s of [...spec.from, spec.to]) {
      if (!SNAKE.test(s)) fail(`state ${s} must be a snake_case French identifier`);
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
