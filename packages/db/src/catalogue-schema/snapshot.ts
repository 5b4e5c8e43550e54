import type { CatalogueSchema, ColumnSchema, TableSchema } from './model';

/**
 * `packages/db/schema/catalogue.snapshot.json`: the business schema as the migrations leave it,
 * written by `schema-migration` with each migration it generates and compared with the
 * declarations next time. Stable and reviewable: tables and named objects sorted by name,
 * columns in the table's order, one line per column, key or index (formatted as Biome formats
 * JSON, so `pnpm lint` leaves it alone).
 */
export interface Snapshot {
  /** The migration that brought the schema to this state. */
  migration: string;
  schema: CatalogueSchema;
}

const COMMENT =
  'The business tables as the migrations leave them. Written by `pnpm --filter @erp/db schema-migration`, never by hand.';

export function serializeSnapshot({ migration, schema }: Snapshot): string {
  const tables = Object.fromEntries(
    Object.keys(schema.tables)
      .sort()
      .map((name) => [name, canonicalTable(schema.tables[name]!)]),
  );
  const document = { $comment: COMMENT, migration, tables };
  // Objects expanded down to each table's parts (one line per column, key, index); within
  // them, whatever fits on a line stays on one.
  return `${print(document, 0, 4)}\n`;
}

export function parseSnapshot(text: string): Snapshot {
  const document = JSON.parse(text) as { migration: string; tables: CatalogueSchema['tables'] };
  // Tables of snapshots written before the books' invariants have none.
  const tables = Object.fromEntries(
    Object.entries(document.tables).map(([name, t]) => [
      name,
      { ...t, invariants: t.invariants ?? [] },
    ]),
  );
  return { migration: document.migration, schema: { tables } };
}

/** A table with its named objects sorted and its columns' keys in one order. */
export function canonicalTable(table: TableSchema): TableSchema {
  const sorted = <T>(record: Record<string, T>) =>
    Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]!]),
    );
  const column = (c: ColumnSchema): ColumnSchema => ({
    type: c.type,
    notNull: c.notNull,
    ...(c.default === undefined ? {} : { default: c.default }),
    ...(c.check ? { check: c.check } : {}),
  });
  return {
    columns: Object.fromEntries(Object.entries(table.columns).map(([k, c]) => [k, column(c)])),
    primaryKey: table.primaryKey,
    unique: sorted(table.unique),
    foreignKeys: sorted(
      Object.fromEntries(
        Object.entries(table.foreignKeys).map(([k, f]) => [
          k,
          {
            columns: f.columns,
            table: f.table,
            referenced: f.referenced,
            ...(f.onDelete ? { onDelete: f.onDelete } : {}),
          },
        ]),
      ),
    ),
    indexes: sorted(table.indexes),
    lineReferences: table.lineReferences.map((r) => ({
      field: r.field,
      key: r.key,
      target: r.target,
    })),
    ...(table.invariants.length ? { invariants: [...table.invariants].sort() } : {}),
  } as TableSchema;
}

const WIDTH = 100;

/**
 * JSON as Biome prints it: an object or array on one line when it fits in the line width
 * (the comma after it included), else one member per line. Objects of the first `expand`
 * levels are always expanded (Biome keeps an object expanded when its first member is on a
 * new line; it has no such rule for arrays).
 */
function print(value: unknown, indent: number, expand: number, prefix = 0, suffix = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map((v) => [null, v])
    : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const key = (k: string | null) => (k === null ? '' : `${JSON.stringify(k)}: `);
  if (expand <= 0 || Array.isArray(value)) {
    const flat = Array.isArray(value)
      ? `[${entries.map(([, v]) => print(v, 0, 0)).join(', ')}]`
      : `{ ${entries.map(([k, v]) => `${key(k)}${print(v, 0, 0)}`).join(', ')} }`;
    if (indent + prefix + flat.length + suffix <= WIDTH && !flat.includes('\n')) return flat;
  }
  const pad = ' '.repeat(indent + 2);
  const members = entries.map(([k, v], i) => {
    const comma = i < entries.length - 1 ? 1 : 0;
    return `${pad}${key(k)}${print(v, indent + 2, expand - 1, key(k).length, comma)}`;
  });
  return `${open}\n${members.join(',\n')}\n${' '.repeat(indent)}${close}`;
}
