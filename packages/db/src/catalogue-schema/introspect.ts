import { type Kysely, sql } from 'kysely';
import { INVARIANTS, invariantSql } from './invariants';
import {
  type CatalogueSchema,
  type ForeignKeySchema,
  type LineReference,
  lineReferencesIndexName,
  type TableSchema,
} from './model';

/**
 * The model of tables as a database holds them (pg_catalog), in the terms of model.ts: what
 * the snapshot is compared with, and what bootstraps it from a migrated database. Anything
 * the model cannot express (another kind of check or index) is an error, so nothing goes
 * unnoticed. Line references are read back from the checking trigger's source, which the
 * generator writes (ddl.ts).
 */
export async function introspectTables(
  // biome-ignore lint/suspicious/noExplicitAny: any schema, as the migrations see it.
  db: Kysely<any>,
  names: readonly string[],
): Promise<CatalogueSchema> {
  const columns = await sql<{
    table: string;
    column: string;
    type: string;
    not_null: boolean;
    default: string | null;
  }>`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
           a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_class c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname = ANY(${names}::text[])
     ORDER BY c.relname, a.attnum
  `.execute(db);
  const constraints = await sql<{
    table: string;
    name: string;
    type: string;
    def: string;
    columns: string[];
    ref_table: string | null;
    ref_columns: string[];
    on_delete: string;
  }>`
    SELECT c.relname AS table, k.conname AS name, k.contype AS type, pg_get_constraintdef(k.oid) AS def,
           ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u (n, o)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o) AS columns,
           f.relname AS ref_table,
           ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u (n, o)
                   JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o) AS ref_columns,
           k.confdeltype AS on_delete
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      LEFT JOIN pg_class f ON f.oid = k.confrelid
     WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(${names}::text[])
       AND k.contype IN ('p', 'u', 'f', 'c')
     ORDER BY c.relname, k.conname
  `.execute(db);
  const indexes = await sql<{
    table: string;
    name: string;
    def: string;
    columns: string[];
    plain: boolean;
  }>`
    SELECT c.relname AS table, i.relname AS name, pg_get_indexdef(x.indexrelid) AS def,
           ARRAY(SELECT a.attname::text FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS u (n, o)
                   JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = u.n ORDER BY u.o) AS columns,
           (am.amname = 'btree' AND x.indexprs IS NULL AND x.indpred IS NULL AND NOT x.indisunique) AS plain
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class c ON c.oid = x.indrelid
      JOIN pg_am am ON am.oid = i.relam
     WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(${names}::text[])
       AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conrelid = x.indrelid AND k.conindid = x.indexrelid)
     ORDER BY c.relname, i.relname
  `.execute(db);
  const functions = await sql<{ name: string; source: string }>`
    SELECT proname AS name, prosrc AS source FROM pg_proc
     WHERE pronamespace = 'public'::regnamespace
       AND proname = ANY(${names.map((n) => `${n}_line_references`)}::text[])
  `.execute(db);

  const tables: Record<string, TableSchema> = {};
  for (const c of columns.rows) {
    tables[c.table] ??= {
      columns: {},
      primaryKey: [],
      unique: {},
      foreignKeys: {},
      indexes: {},
      lineReferences: [],
      invariants: [],
    };
    tables[c.table]!.columns[c.column] = {
      type: c.type,
      notNull: c.not_null,
      ...(c.default === null ? {} : { default: c.default }),
    };
  }
  for (const k of constraints.rows) {
    const table = tables[k.table]!;
    if (k.type === 'p') table.primaryKey = k.columns;
    else if (k.type === 'u') table.unique[k.name] = k.columns;
    else if (k.type === 'f') {
      if (k.on_delete !== 'a' && k.on_delete !== 'c')
        throw new Error(`${k.table}: foreign key ${k.name} is not modelled (${k.def})`);
      const key: ForeignKeySchema = {
        columns: k.columns,
        table: k.ref_table!,
        referenced: k.ref_columns,
      };
      if (k.on_delete === 'c') key.onDelete = 'cascade';
      table.foreignKeys[k.name] = key;
    } else if (!invariantNames(k.table).has(k.name)) {
      const values = checkValues(k.def);
      if (!values || k.columns.length !== 1)
        throw new Error(`${k.table}: check ${k.name} is not modelled (${k.def})`);
      table.columns[k.columns[0]!]!.check = values;
    }
  }
  // An invariant is there when every constraint and trigger it makes is (catalogLines compares their SQL).
  const triggers = await sql<{ table: string; name: string }>`
    SELECT c.relname AS table, t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
       AND c.relname = ANY(${names}::text[])
  `.execute(db);
  for (const [name, table] of Object.entries(tables)) {
    const present = new Set([
      ...constraints.rows.filter((k) => k.table === name).map((k) => k.name),
      ...triggers.rows.filter((t) => t.table === name).map((t) => t.name),
    ]);
    table.invariants = INVARIANTS.filter((i) =>
      invariantSql(i, name).names.every((n) => present.has(n)),
    );
  }
  for (const i of indexes.rows) {
    if (i.name === lineReferencesIndexName(i.table)) continue;
    if (!i.plain) throw new Error(`${i.table}: index ${i.name} is not modelled (${i.def})`);
    tables[i.table]!.indexes[i.name] = i.columns;
  }
  for (const f of functions.rows) {
    const table = f.name.slice(0, -'_line_references'.length);
    if (tables[table]) tables[table].lineReferences = lineReferencesOf(f.source);
  }
  return { tables };
}

function invariantNames(table: string): Set<string> {
  return new Set(INVARIANTS.flatMap((i) => invariantSql(i, table).names));
}

/** `CHECK ((c = ANY (ARRAY['a'::text, 'b'::text])))` or `CHECK ((c = 'a'::text))` → its values. */
export function checkValues(def: string): string[] | null {
  const match = /^CHECK \(\(\w+ = (?:ANY \(ARRAY\[(.*)\]\)|('(?:[^']|'')*'::text))\)\)$/.exec(def);
  const list = match?.[1] ?? match?.[2];
  if (!list) return null;
  const values = [...list.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) =>
    m[1]!.replace(/''/g, "'"),
  );
  return values.length ? values : null;
}

/** The references the line-checking trigger function checks, in its order (ddl.ts writes it). */
function lineReferencesOf(source: string): LineReference[] {
  const refs: LineReference[] = [];
  const pattern =
    /jsonb_path_query\(NEW\.(\w+), '\$\[\*\]\.(\w+) \? \(@ != null\)'\)[\s\S]*?PERFORM FROM (\w+) t /g;
  for (const m of source.matchAll(pattern)) refs.push({ field: m[1]!, key: m[2]!, target: m[3]! });
  return refs;
}
