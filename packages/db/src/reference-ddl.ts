import { type Resource, USER } from '@erp/contract';

/** A reference held inside line items: `<field>[].<key>` names a row of `target`. */
export interface LineReference {
  field: string;
  key: string;
  target: string;
}

/** The references a resource holds inside its lines fields, resolved to tables. */
export function lineReferences(
  resource: Resource,
  registry: ReadonlyMap<string, Resource>,
): LineReference[] {
  return Object.entries(resource.fields).flatMap(([field, spec]) =>
    spec.type === 'lines'
      ? Object.entries(spec.fields).flatMap(([key, line]) => {
          if (line.type !== 'reference') return [];
          const target = line.resource === resource.name ? resource : registry.get(line.resource);
          if (!target)
            throw new Error(`${resource.name}.${field}[].${key}: unknown ${line.resource}`);
          return [{ field, key, target: target.table }];
        })
      : [],
  );
}

/** The columns of a resource that name a user (a member of the record's tenant). */
export function userReferences(resource: Resource): string[] {
  return Object.entries(resource.fields).flatMap(([name, spec]) =>
    spec.type === 'reference' && spec.resource === USER ? [name] : [],
  );
}

/**
 * What keeps a resource's references in its tenant beyond its own foreign keys:
 * - user columns: a composite foreign key to `memberships`, and a trigger that nulls them
 *   when the member leaves the tenant (`ON DELETE SET NULL (col)` needs PostgreSQL 15, and it
 *   would not change `version`);
 * - references inside line items: a trigger that checks them on every write (the foreign key
 *   a jsonb column cannot have), a GIN index, and triggers on each target table that refuse
 *   to delete a row some line names.
 * Empty when the resource has neither. Tables are named unquoted (declarations are checked).
 */
export function referencesSql(resource: Resource, registry: ReadonlyMap<string, Resource>): string {
  const statements: string[] = [];
  const users = userReferences(resource);
  for (const column of users) {
    statements.push(
      `ALTER TABLE ${resource.table} ADD FOREIGN KEY (tenant_id, ${column}) REFERENCES memberships (tenant_id, user_id);`,
    );
  }
  if (users.length > 0) statements.push(releaseMemberSql(resource.table, users));
  const lines = lineReferences(resource, registry);
  if (lines.length > 0) statements.push(lineReferencesSql(resource.table, lines));
  return statements.length ? `${statements.join('\n')}\n` : '';
}

/** Drops what `referencesSql` created (the table itself excepted). */
export function referencesDropSql(
  resource: Resource,
  registry: ReadonlyMap<string, Resource>,
): string {
  const statements: string[] = [];
  const lines = lineReferences(resource, registry);
  if (lines.length > 0) {
    statements.push(
      `DROP FUNCTION ${resource.table}_line_referenced() CASCADE;`,
      `DROP TRIGGER line_references ON ${resource.table};`,
      `DROP FUNCTION ${resource.table}_line_references();`,
      `DROP INDEX ${resource.table}_line_references;`,
    );
  }
  const users = userReferences(resource);
  if (users.length > 0) {
    statements.push(`DROP FUNCTION ${resource.table}_release_member() CASCADE;`);
    for (const column of users) {
      statements.push(
        `ALTER TABLE ${resource.table} DROP CONSTRAINT ${resource.table}_tenant_id_${column}_fkey;`,
      );
    }
  }
  return statements.length ? `${statements.join('\n')}\n` : '';
}

/**
 * A member leaving a tenant unlinks the records naming them, with a new version (so ETags
 * change); when the tenant itself is being deleted, its records go too and nothing is
 * unlinked. Row-level security is forced on the owner too: the update runs with the removed
 * membership's tenant, whoever removes it, and the previous tenant setting is put back.
 */
function releaseMemberSql(table: string, columns: string[]): string {
  const sets = columns.map((c) => `${c} = CASE WHEN ${c} = OLD.user_id THEN NULL ELSE ${c} END`);
  return `CREATE FUNCTION ${table}_release_member() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_tenant text := current_setting('app.tenant_id', true);
BEGIN
  IF NOT EXISTS (SELECT FROM tenants WHERE id = OLD.tenant_id) THEN
    RETURN OLD;
  END IF;
  PERFORM set_config('app.tenant_id', OLD.tenant_id::text, true);
  UPDATE ${table} SET ${sets.join(', ')}, version = version + 1, updated_at = now()
   WHERE tenant_id = OLD.tenant_id AND (${columns.map((c) => `${c} = OLD.user_id`).join(' OR ')});
  PERFORM set_config('app.tenant_id', coalesce(v_tenant, ''), true);
  RETURN OLD;
END
$fn$;
CREATE TRIGGER ${table}_release_member BEFORE DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION ${table}_release_member();`;
}

function lineReferencesSql(table: string, refs: LineReference[]): string {
  const fields = [...new Set(refs.map((r) => r.field))];
  const targets = [...new Set(refs.map((r) => r.target))];
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
CREATE INDEX ${table}_line_references ON ${table} USING gin (${fields.map((f) => `${f} jsonb_path_ops`).join(', ')});
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
  .join('\n')}`;
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
 * For a migration adding `referencesSql` to tables that already hold rows, run first:
 * user columns naming someone who is not a member become null (what removing the member
 * would have done), line ids are rewritten in canonical form, and a line naming no row of its
 * tenant fails the migration with a count, for an operator to look at (as `ADD FOREIGN KEY`
 * fails on a violating row), since a line's product may be required. Row-level security is
 * lifted for the owner inside the migration's transaction, so every tenant's rows are seen.
 */
export function existingRowsSql(
  resource: Resource,
  registry: ReadonlyMap<string, Resource>,
): string {
  const table = resource.table;
  const users = userReferences(resource);
  const lines = lineReferences(resource, registry);
  if (users.length === 0 && lines.length === 0) return '';
  const statements = [`ALTER TABLE ${table} NO FORCE ROW LEVEL SECURITY;`];
  for (const column of users) {
    statements.push(`UPDATE ${table} r SET ${column} = NULL, version = version + 1, updated_at = now()
 WHERE ${column} IS NOT NULL
   AND NOT EXISTS (SELECT FROM memberships m WHERE m.tenant_id = r.tenant_id AND m.user_id = r.${column});`);
  }
  for (const { field, key, target } of lines) {
    statements.push(`UPDATE ${table} r SET ${field} = (
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
$do$;`);
  }
  statements.push(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;`);
  return `${statements.join('\n')}\n`;
}
