import { identifier, literal } from './identifier';
import { invariantSql } from './invariants';
import {
  type ColumnSchema,
  checkName,
  type ForeignKeySchema,
  type LineReference,
  lineReferencesIndexName,
  primaryKeyName,
  type TableSchema,
  userColumns,
} from './model';

/**
 * The SQL of the business schema, from its model (model.ts): the one definition of the
 * catalogue's DDL. The migration generator freezes what these functions write; the tests
 * compare what PostgreSQL keeps of it with the migrated database. Names come from checked
 * declarations (snake_case, reserved words refused), so the SQL needs no quoting; `identifier`
 * refuses anything else.
 */
export { identifier, literal };

export function columnSql(name: string, column: ColumnSchema): string {
  return `${identifier(name)} ${column.type}${column.notNull ? ' NOT NULL' : ''}${column.default === undefined ? '' : ` DEFAULT ${column.default}`}`;
}

export function checkSql(column: string, values: readonly string[]): string {
  return `CHECK (${identifier(column)} IN (${values.map(literal).join(', ')}))`;
}

export function foreignKeySql(key: ForeignKeySchema): string {
  return `FOREIGN KEY (${key.columns.map(identifier).join(', ')}) REFERENCES ${identifier(key.table)} (${key.referenced.map(identifier).join(', ')})${key.onDelete === 'cascade' ? ' ON DELETE CASCADE' : ''}`;
}

export function createIndexSql(table: string, name: string, columns: readonly string[]): string {
  return `CREATE INDEX ${identifier(name)} ON ${identifier(table)} (${columns.map(identifier).join(', ')});`;
}

/**
 * One table, whole: columns, keys, checks (every constraint named as PostgreSQL would name
 * it), indexes, row-level security enabled and forced with the `tenant_isolation` policy,
 * the grants to `erp_app`, then what keeps its references in the tenant (`referencesSql`).
 */
export function createTableSql(name: string, table: TableSchema): string {
  const t = identifier(name);
  const lines = Object.entries(table.columns).map(([column, spec]) => columnSql(column, spec));
  // The primary key is added after the table (below): inside CREATE TABLE, PostgreSQL would
  // silently drop the UNIQUE (tenant_id, id) the references point at as a duplicate of it, and a
  // table made from scratch would differ from one the migrations widened (migration 0040).
  for (const [constraint, key] of Object.entries(table.foreignKeys))
    lines.push(`CONSTRAINT ${identifier(constraint)} ${foreignKeySql(key)}`);
  for (const [column, spec] of Object.entries(table.columns))
    if (spec.check)
      lines.push(`CONSTRAINT ${checkName(name, column)} ${checkSql(column, spec.check)}`);
  for (const [constraint, columns] of Object.entries(table.unique))
    lines.push(
      `CONSTRAINT ${identifier(constraint)} UNIQUE (${columns.map(identifier).join(', ')})`,
    );
  const statements = [
    `CREATE TABLE ${t} (\n${lines.map((l) => `  ${l}`).join(',\n')}\n);`,
    `ALTER TABLE ${t} ADD CONSTRAINT ${primaryKeyName(name)} PRIMARY KEY (${table.primaryKey.map(identifier).join(', ')});`,
  ];
  for (const [index, columns] of Object.entries(table.indexes))
    statements.push(createIndexSql(name, index, columns));
  statements.push(
    `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY;`,
    `ALTER TABLE ${t} FORCE ROW LEVEL SECURITY;`,
    `CREATE POLICY tenant_isolation ON ${t}\n  USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO erp_app;`,
  );
  const invariants = table.invariants.map((i) => invariantSql(i, name).create).join('');
  return `${statements.join('\n')}\n${referencesSql(name, table)}${invariants}`;
}

/** Drops one table with everything it brought (triggers it put on other tables included). */
export function dropTableSql(name: string, table: TableSchema): string {
  const t = identifier(name);
  const statements: string[] = [];
  // Functions whose triggers sit on other tables (targets, memberships) go first, with them.
  if (userColumns(table).length) statements.push(`DROP FUNCTION ${t}_release_member() CASCADE;`);
  if (table.lineReferences.length) statements.push(`DROP FUNCTION ${t}_line_referenced() CASCADE;`);
  // The books' triggers and functions (some take the table's row type) go before it.
  for (const invariant of [...table.invariants].reverse())
    statements.push(invariantSql(invariant, name).drop.trimEnd());
  statements.push(`DROP TABLE ${t};`);
  if (table.lineReferences.length) statements.push(`DROP FUNCTION ${t}_line_references();`);
  return `${statements.join('\n')}\n`;
}

/**
 * What keeps a table's references in its tenant beyond its own foreign keys:
 * - user columns: their composite foreign key to `memberships` is in the table; a trigger
 *   nulls them when the member leaves the tenant (`ON DELETE SET NULL (col)` needs
 *   PostgreSQL 15, and it would not change `version`);
 * - references inside line items: a trigger that checks them on every write (the foreign key
 *   a jsonb column cannot have), a GIN index, and triggers on each target table that refuse
 *   to delete a row some line names.
 * Empty when the table has neither.
 */
export function referencesSql(name: string, table: TableSchema): string {
  return `${releaseMemberSql(name, table)}${lineReferencesSql(name, table.lineReferences)}`;
}

/** The trigger nulling user columns when a member leaves (empty without user columns). */
export function releaseMemberSql(name: string, table: TableSchema): string {
  const columns = userColumns(table);
  if (columns.length === 0) return '';
  const t = identifier(name);
  const sets = columns.map((c) => `${c} = CASE WHEN ${c} = OLD.user_id THEN NULL ELSE ${c} END`);
  // A member leaving a tenant unlinks the records naming them, with a new version (so ETags
  // change); when the tenant itself is being deleted, its records go too and nothing is
  // unlinked. Row-level security is forced on the owner too: the update runs with the removed
  // membership's tenant, whoever removes it, and the previous tenant setting is put back.
  return `CREATE FUNCTION ${t}_release_member() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_tenant text := current_setting('app.tenant_id', true);
BEGIN
  IF NOT EXISTS (SELECT FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  PERFORM set_config('app.tenant_id', OLD.tenant_id::text, true);
  UPDATE ${t} SET ${sets.join(', ')}, version = version + 1, updated_at = now()
   WHERE tenant_id = OLD.tenant_id AND (${columns.map((c) => `${c} = OLD.user_id`).join(' OR ')});
  PERFORM set_config('app.tenant_id', coalesce(v_tenant, ''), true);
  RETURN OLD;
END
$fn$;
CREATE TRIGGER ${t}_release_member BEFORE DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION ${t}_release_member();
`;
}

export function releaseMemberDropSql(name: string, table: TableSchema): string {
  return userColumns(table).length
    ? `DROP FUNCTION ${identifier(name)}_release_member() CASCADE;\n`
    : '';
}

/** The triggers and the index checking references inside line items (empty without any). */
export function lineReferencesSql(name: string, refs: readonly LineReference[]): string {
  if (refs.length === 0) return '';
  const table = identifier(name);
  const fields = [...new Set(refs.map((r) => identifier(r.field)))];
  const targets = [...new Set(refs.map((r) => identifier(r.target)))];
  return `CREATE FUNCTION ${table}_line_references() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_refs text[];
  v_ids uuid[];
  v_found bigint;
  v_line bigint;
  v_id text;
BEGIN
${refs.map((r) => checkLineSql(table, r)).join('\n')}
  RETURN NEW;
END
$fn$;
CREATE TRIGGER line_references BEFORE INSERT OR UPDATE OF tenant_id, ${fields.join(', ')} ON ${table}
  FOR EACH ROW EXECUTE FUNCTION ${table}_line_references();
CREATE INDEX ${lineReferencesIndexName(table)} ON ${table} USING gin (${fields.map((f) => `${f} jsonb_path_ops`).join(', ')});
CREATE FUNCTION ${table}_line_referenced() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id AND NEW.tenant_id = OLD.tenant_id THEN
    RETURN NULL;
  END IF;
${refs.map((r) => restrictSql(table, r)).join('\n')}
  RETURN NULL;
END
$fn$;
${targets
  .map(
    (
      target,
    ) => `CREATE TRIGGER ${table}_line_references AFTER DELETE OR UPDATE OF tenant_id, id ON ${target}
  FOR EACH ROW EXECUTE FUNCTION ${table}_line_referenced();`,
  )
  .join('\n')}
`;
}

/** Drops what `lineReferencesSql` created (the table itself stays). */
export function lineReferencesDropSql(name: string, refs: readonly LineReference[]): string {
  if (refs.length === 0) return '';
  const t = identifier(name);
  return `DROP FUNCTION ${t}_line_referenced() CASCADE;
DROP TRIGGER line_references ON ${t};
DROP FUNCTION ${t}_line_references();
DROP INDEX ${lineReferencesIndexName(t)};
`;
}

/**
 * One reference of the lines: every id must be a row of the target in the row's tenant, locked
 * FOR KEY SHARE as a foreign key locks it (a concurrent delete waits, then sees the line).
 * Ids are stored in canonical form, so the delete check's containment test finds them. The
 * error names the first bad line as the API does (`lines.2.product_id`), in COLUMN.
 */
function checkLineSql(table: string, { field, key, target }: LineReference): string {
  const path = `${field}.%s.${key}`;
  return `  v_refs := ARRAY(SELECT jsonb_path_query(NEW.${field}, '$[*].${key} ? (@ != null)') #>> '{}');
  v_ids := v_refs::uuid[];
  IF v_ids::text[] <> v_refs THEN
    RAISE EXCEPTION 'line references of ${table}.${field} must be lowercase hyphenated UUIDs'
      USING ERRCODE = 'invalid_text_representation', TABLE = '${table}', COLUMN = '${field}';
  END IF;
  IF cardinality(v_ids) > 0 THEN
    PERFORM FROM ${target} t WHERE t.tenant_id = NEW.tenant_id AND t.id = ANY (v_ids) FOR KEY SHARE;
    GET DIAGNOSTICS v_found = ROW_COUNT;
    IF v_found < cardinality(v_ids) AND v_found < (SELECT count(DISTINCT u) FROM unnest(v_ids) AS u) THEN
      SELECT l.ord - 1, l.value ->> '${key}' INTO v_line, v_id
        FROM jsonb_array_elements(NEW.${field}) WITH ORDINALITY AS l (value, ord)
       WHERE l.value ->> '${key}' IS NOT NULL AND NOT EXISTS (
         SELECT FROM ${target} t WHERE t.tenant_id = NEW.tenant_id AND t.id = (l.value ->> '${key}')::uuid)
       ORDER BY l.ord LIMIT 1;
      RAISE EXCEPTION 'insert or update on table "${table}" violates line reference ${field}[].${key}'
        USING ERRCODE = 'foreign_key_violation', TABLE = '${table}', CONSTRAINT = '${table}_line_references',
          COLUMN = format('${path}', v_line),
          DETAIL = format('Line %s: no row of ${target} in this tenant has id %s.', v_line, v_id);
    END IF;
  END IF;`;
}

/** Refuses to delete (or re-key) a target row while a line of this table names it. */
function restrictSql(table: string, { field, key, target }: LineReference): string {
  return `  IF TG_TABLE_NAME = '${target}' AND EXISTS (
    SELECT FROM ${table} r
     WHERE r.tenant_id = OLD.tenant_id AND r.${field} @> jsonb_build_array(jsonb_build_object('${key}', OLD.id))) THEN
    RAISE EXCEPTION 'update or delete on table "${target}" violates line reference ${field}[].${key} from table "${table}"'
      USING ERRCODE = 'foreign_key_violation', TABLE = '${table}', CONSTRAINT = '${table}_line_references';
  END IF;`;
}

/**
 * Before line references are checked on a table that already holds rows: line ids are
 * rewritten in canonical form, and a line naming no row of its tenant fails the migration
 * with a count, for an operator to look at (as `ADD FOREIGN KEY` fails on a violating row).
 * Row-level security is lifted for the owner inside the migration's transaction, so every
 * tenant's rows are seen.
 */
export function existingLinesSql(name: string, refs: readonly LineReference[]): string {
  if (refs.length === 0) return '';
  const table = identifier(name);
  const statements = refs.map(
    ({ field, key, target }) => `UPDATE ${table} r SET ${field} = (
  SELECT jsonb_agg(CASE WHEN l.value ->> '${key}' IS NULL THEN l.value
    ELSE jsonb_set(l.value, '{${key}}', to_jsonb((l.value ->> '${key}')::uuid)) END ORDER BY l.ord)
    FROM jsonb_array_elements(r.${field}) WITH ORDINALITY AS l (value, ord))
 WHERE EXISTS (SELECT FROM jsonb_array_elements(r.${field}) AS l (value)
   WHERE l.value ->> '${key}' <> (l.value ->> '${key}')::uuid::text);
DO $do$
DECLARE
  v_bad bigint;
BEGIN
  SELECT count(*) INTO v_bad FROM ${table} r, jsonb_array_elements(r.${field}) AS l (value)
   WHERE l.value ->> '${key}' IS NOT NULL AND NOT EXISTS (
     SELECT FROM ${target} t WHERE t.tenant_id = r.tenant_id AND t.id = (l.value ->> '${key}')::uuid);
  IF v_bad > 0 THEN
    RAISE EXCEPTION '% line(s) of ${table}.${field} name a ${key} that is no row of ${target} in their tenant', v_bad
      USING HINT = 'Correct or remove those lines, then migrate again.';
  END IF;
END
$do$;`,
  );
  return `${withoutForcedSecurity(name, statements.join('\n'))}`;
}

/**
 * Statements that must see every tenant's rows (a migration runs as the tables' owner, whom
 * forced row-level security filters too), in the migration's transaction.
 */
export function withoutForcedSecurity(name: string, statements: string): string {
  const t = identifier(name);
  return `ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY;\n${statements}\nALTER TABLE ${t} FORCE ROW LEVEL SECURITY;\n`;
}
