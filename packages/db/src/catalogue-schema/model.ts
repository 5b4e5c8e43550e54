import { fieldType, type Resource, USER } from '@erp/contract';
import type { Invariant } from './invariants';

/**
 * The business schema as data: what the catalogue's tables are made of, in the terms
 * PostgreSQL itself reports them (`format_type`, `pg_get_expr`, constraint names), so that the
 * model built from the declarations, the committed snapshot and the model read back from a
 * migrated database compare as plain values. Row-level security, the `tenant_isolation` policy
 * and the grants are the same for every table: the DDL writes them, the model leaves them out.
 */
export interface CatalogueSchema {
  /** By table name. */
  tables: Record<string, TableSchema>;
}

export interface TableSchema {
  /** In the table's column order. */
  columns: Record<string, ColumnSchema>;
  primaryKey: string[];
  /** By constraint name: the columns. */
  unique: Record<string, string[]>;
  /** By constraint name. A key to `memberships` is a user field (SPEC: a member of the tenant). */
  foreignKeys: Record<string, ForeignKeySchema>;
  /** By index name: the indexed columns (btree), tenant first. */
  indexes: Record<string, string[]>;
  /** References held inside line items (checked by triggers, not by foreign keys). */
  lineReferences: LineReference[];
  /** The rules of the books and the goods kept by the database (invariants.ts), sorted. */
  invariants: Invariant[];
}

export interface ColumnSchema {
  /** As `format_type` prints it: `timestamp with time zone`, `numeric(18,6)`. */
  type: string;
  notNull: boolean;
  /** As `pg_get_expr` prints it: `'[]'::jsonb`, `now()`. */
  default?: string;
  /** The values `CHECK (<column> IN (…))` allows (enums, statuses). */
  check?: string[];
}

export interface ForeignKeySchema {
  columns: string[];
  table: string;
  referenced: string[];
  onDelete?: 'cascade';
}

/** `<field>[].<key>` names a row of `target` (a table) in the record's tenant. */
export interface LineReference {
  field: string;
  key: string;
  target: string;
}

/** PostgreSQL's spelling of the types the field-types table writes (`format_type`). */
const TYPE_SPELLING: Record<string, string> = {
  timestamptz: 'timestamp with time zone',
  int: 'integer',
  int4: 'integer',
  int8: 'bigint',
  bool: 'boolean',
};

export function canonicalType(type: string): string {
  return TYPE_SPELLING[type] ?? type;
}

/** A SQL string literal as `pg_get_expr` prints a text default: `'brouillon'::text`. */
export function textLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'::text`;
}

const NAMEDATALEN = 64;

/**
 * The name PostgreSQL gives a constraint it names itself (`makeObjectName`): `<table>_<columns>_<label>`,
 * the longer of the first two parts shortened until the name fits in 63 bytes. New tables name
 * their constraints explicitly with it, so long names come out as they would have implicitly.
 */
export function objectName(table: string, columns: string | null, label: string): string {
  let tableChars = table.length;
  let columnChars = columns?.length ?? 0;
  const available = NAMEDATALEN - 1 - (columns === null ? 0 : 1) - (label.length + 1);
  while (tableChars + columnChars > available) {
    if (tableChars > columnChars) tableChars--;
    else columnChars--;
  }
  return [
    table.slice(0, tableChars),
    ...(columns === null ? [] : [columns.slice(0, columnChars)]),
    label,
  ].join('_');
}

export const checkName = (table: string, column: string) => objectName(table, column, 'check');
export const primaryKeyName = (table: string) => objectName(table, null, 'pkey');
const keyName = (table: string, columns: string[]) => objectName(table, columns.join('_'), 'key');
const foreignKeyName = (table: string, columns: string[]) =>
  objectName(table, columns.join('_'), 'fkey');

/** The objects the reference machinery names after its table (reference-sql.ts). */
export const lineReferencesIndexName = (table: string) => `${table}_line_references`;

/**
 * The model of every resource's table, as the declarations want it. Indexes follow what is
 * declared (all tenant-leading, since every query filters the tenant first):
 * - a sortable field: `(tenant_id, field, id)`, the keyset order (`ORDER BY field, id`); it
 *   serves the field's filters too;
 * - a filterable field or a reference (the foreign key's lookups when the target row is
 *   deleted): `(tenant_id, field)`;
 * - nothing when a unique key or another index already starts with those columns (`id`,
 *   `number`: a unique `(tenant_id, number)` orders by number alone).
 * The lifecycle's `status` is a sortable field like the others: `(tenant_id, status, id)`.
 */
export function catalogueSchema(resources: readonly Resource[]): CatalogueSchema {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const tables: Record<string, TableSchema> = {};
  for (const resource of resources) {
    if (tables[resource.table]) throw new Error(`two resources have the table ${resource.table}`);
    tables[resource.table] = tableSchema(resource, byName);
  }
  return { tables };
}

/** The model of one resource's table; `registry` resolves the resources it refers to. */
export function tableSchema(
  resource: Resource,
  registry: ReadonlyMap<string, Resource>,
): TableSchema {
  const table = resource.table;
  const targetOf = (name: string, where: string): string => {
    const target = name === resource.name ? resource : registry.get(name);
    if (!target) throw new Error(`${resource.name}.${where}: unknown resource ${name}`);
    return target.table;
  };
  const columns: Record<string, ColumnSchema> = {
    id: { type: 'uuid', notNull: true, default: 'erp_uuidv7()' },
    tenant_id: { type: 'uuid', notNull: true },
  };
  const unique: Record<string, string[]> = {};
  const foreignKeys: Record<string, ForeignKeySchema> = {};
  const addUnique = (cols: string[]) => {
    unique[keyName(table, cols)] = cols;
  };
  const addForeignKey = (key: ForeignKeySchema) => {
    foreignKeys[foreignKeyName(table, key.columns)] = key;
  };
  addForeignKey({
    columns: ['tenant_id'],
    table: 'tenants',
    referenced: ['id'],
    onDelete: 'cascade',
  });
  addUnique(['tenant_id', 'id']);
  if (resource.numbering) {
    columns.number = { type: 'text', notNull: true };
    addUnique(['tenant_id', 'number']);
  }
  if (resource.lifecycle) {
    columns.status = {
      type: 'text',
      notNull: true,
      default: textLiteral(resource.lifecycle.initial),
      check: [...resource.states],
    };
  }
  for (const [name, field] of Object.entries(resource.fields)) {
    const column: ColumnSchema = {
      type: canonicalType(fieldType(field).column(field)),
      // Lines are never null: a document without lines has an empty list.
      notNull: Boolean(field.required) || field.type === 'lines',
    };
    if (field.type === 'lines') column.default = "'[]'::jsonb";
    if (field.type === 'enum') column.check = [...field.values];
    columns[name] = column;
    if (field.type === 'reference' && field.resource === USER) {
      addForeignKey({
        columns: ['tenant_id', name],
        table: 'memberships',
        referenced: ['tenant_id', 'user_id'],
      });
    } else if (field.type === 'reference') {
      addForeignKey({
        columns: ['tenant_id', name],
        table: targetOf(field.resource, name),
        referenced: ['tenant_id', 'id'],
      });
    }
  }
  if (resource.totalsFrom) {
    for (const total of ['subtotal_cents', 'tax_cents', 'total_cents'])
      columns[total] = { type: 'bigint', notNull: true, default: '0' };
  }
  // What the server maintains (SPEC §17): a posting's stamp, a settled document's amount due,
  // and the resource's own maintained fields (a payment's allocated amounts); amounts start at 0.
  if ('posted_at' in resource.readOnlyFields)
    columns.posted_at = { type: 'timestamp with time zone', notNull: false };
  if ('amount_due_cents' in resource.readOnlyFields)
    columns.amount_due_cents = { type: 'bigint', notNull: true, default: '0' };
  if (resource.ledgerRole === 'payment')
    for (const amount of ['allocated_cents', 'unallocated_cents'])
      columns[amount] = { type: 'bigint', notNull: true, default: '0' };
  columns.version = { type: 'integer', notNull: true, default: '1' };
  columns.created_at = { type: 'timestamp with time zone', notNull: true, default: 'now()' };
  columns.updated_at = { type: 'timestamp with time zone', notNull: true, default: 'now()' };

  const lineReferences = Object.entries(resource.fields).flatMap(([field, spec]) =>
    spec.type === 'lines'
      ? Object.entries(spec.fields).flatMap(([key, line]) =>
          line.type === 'reference'
            ? [{ field, key, target: targetOf(line.resource, `${field}[].${key}`) }]
            : [],
        )
      : [],
  );

  const wanted: string[][] = [];
  for (const [name, field] of Object.entries(resource.allFields)) {
    if (field.sortable) wanted.push(['tenant_id', name, ...(name === 'id' ? [] : ['id'])]);
    else if (field.filterable || field.type === 'reference') wanted.push(['tenant_id', name]);
  }
  const isPrefix = (short: string[], long: string[]) =>
    short.length <= long.length && short.every((c, i) => long[i] === c);
  const indexes: Record<string, string[]> = {};
  for (const cols of wanted) {
    const covered =
      Object.values(unique).some((u) => isPrefix(u, cols)) ||
      wanted.some((other) => other !== cols && other.length > cols.length && isPrefix(cols, other));
    if (!covered) indexes[`${table}_${cols[1]}`] = cols;
  }

  const schema: TableSchema = {
    columns,
    // The tenant first, as in every key and reference of the table: what a table distributed
    // by tenant (Citus) needs of its primary key (SPEC §19).
    primaryKey: ['tenant_id', 'id'],
    unique,
    foreignKeys,
    indexes,
    lineReferences,
    invariants: invariantsOf(resource),
  };
  checkNames(table, schema);
  return schema;
}

/** Every relation-level name the table's objects take, once (index names share one namespace). */
function checkNames(table: string, schema: TableSchema): void {
  const names = [
    primaryKeyName(table),
    ...Object.keys(schema.unique),
    ...Object.keys(schema.indexes),
    ...(schema.lineReferences.length ? [lineReferencesIndexName(table)] : []),
  ];
  const seen = new Set<string>();
  for (const name of names) {
    if (name.length > NAMEDATALEN - 1) throw new Error(`${table}: name ${name} is too long`);
    if (seen.has(name))
      throw new Error(`${table}: two indexes would be named ${name}; rename the field`);
    seen.add(name);
  }
}

/** The user columns of a table: those with a foreign key to `memberships`, in column order. */
export function userColumns(schema: TableSchema): string[] {
  const keyed = new Set(
    Object.values(schema.foreignKeys)
      .filter((k) => k.table === 'memberships')
      .map((k) => k.columns[1]!),
  );
  return Object.keys(schema.columns).filter((c) => keyed.has(c));
}

/**
 * Tables in an order where each comes after those it refers to (foreign keys and line
 * references); ties keep the given order. Self references and tables outside `names` do not
 * count.
 */
export function inCreationOrder(schema: CatalogueSchema, names: readonly string[]): string[] {
  const wanted = new Set(names);
  const dependencies = new Map(
    names.map((name) => {
      const t = schema.tables[name]!;
      const targets = [
        ...Object.values(t.foreignKeys).map((k) => k.table),
        ...t.lineReferences.map((l) => l.target),
      ];
      return [name, new Set(targets.filter((d) => d !== name && wanted.has(d)))];
    }),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const next = names.find(
      (n) => !placed.has(n) && [...dependencies.get(n)!].every((d) => placed.has(d)),
    );
    if (!next) throw new Error(`tables refer to each other in a cycle: ${names.join(', ')}`);
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

/** The invariants a resource's declaration asks for (SPEC §17, §18). */
function invariantsOf(resource: Resource): Invariant[] {
  const invariants: Invariant[] = [];
  if (resource.lifecycle?.settlement) invariants.push('settled');
  if (resource.ledgerRole === 'payment') invariants.push('allocated');
  if (resource.ledgerRole === 'entry') invariants.push('ledger');
  if (resource.ledgerRole === 'allocation') invariants.push('allocation');
  if (resource.conversions?.length) invariants.push('counted');
  return invariants.sort();
}
