import {
  checkSql,
  columnSql,
  createIndexSql,
  createTableSql,
  dropTableSql,
  existingLinesSql,
  foreignKeySql,
  identifier,
  lineReferencesDropSql,
  lineReferencesSql,
  literal,
  releaseMemberDropSql,
  releaseMemberSql,
  withoutForcedSecurity,
} from './ddl';
import { invariantSql } from './invariants';
import {
  type CatalogueSchema,
  type ColumnSchema,
  checkName,
  type ForeignKeySchema,
  inCreationOrder,
  type LineReference,
  primaryKeyName,
  type TableSchema,
  userColumns,
} from './model';

/** One table's part of a migration: frozen SQL both ways. */
export interface MigrationStep {
  table: string;
  up: string;
  down: string;
}

export interface MigrationPlan {
  /** Destructive changes the generator will not write, one line each; nothing is written then. */
  refusals: string[];
  /** New tables first (each after those it refers to), then changes to existing ones. */
  steps: MigrationStep[];
  /** What changes, one line each, for the migration's comment and the command's output. */
  changes: string[];
  /** The schema once the migration ran: the next snapshot. */
  next: CatalogueSchema;
}

/**
 * What turns `before` (the snapshot: the migrated schema) into `after` (the declarations).
 * Written: new tables; new columns (a required one only with a default, which the rows already
 * there take); dropped NOT NULL and changed defaults; widened checks (values added, or the
 * check removed); statuses renamed in `renames` (the rows are rewritten with a new version,
 * then the check is replaced); keys on new columns; the user and line-reference triggers;
 * indexes added, replaced or dropped (an index holds no data). Refused: a table or column
 * removed, a type changed, NULL → NOT NULL, a check added or narrowed, a key added on an
 * existing column (rows may violate any of these).
 */
export function planMigration(
  before: CatalogueSchema,
  after: CatalogueSchema,
  renames: Readonly<Record<string, string>> = {},
): MigrationPlan {
  const refusals: string[] = [];
  const changes: string[] = [];
  const steps: MigrationStep[] = [];
  const next: CatalogueSchema = { tables: {} };
  for (const name of Object.keys(before.tables))
    if (!after.tables[name]) refusals.push(`${name}: table removed`);

  const created = inCreationOrder(
    after,
    Object.keys(after.tables).filter((name) => !before.tables[name]),
  );
  for (const name of created) {
    const table = after.tables[name]!;
    steps.push({ table: name, up: createTableSql(name, table), down: dropTableSql(name, table) });
    changes.push(`${name}: new table`);
  }
  for (const name of Object.keys(after.tables)) {
    if (!before.tables[name]) {
      next.tables[name] = after.tables[name]!;
      continue;
    }
    const plan = planTable(name, before.tables[name]!, after.tables[name]!, renames);
    refusals.push(...plan.refusals);
    changes.push(...plan.changes);
    if (plan.step) steps.push(plan.step);
    next.tables[name] = plan.next;
  }
  return { refusals, steps, changes, next };
}

/** The groups of one table's statements, in the order `up` runs them; `down` runs the inverse backwards. */
const GROUPS = [
  'dropIndexes',
  'dropConstraints',
  'dropChecks',
  'renames',
  'addColumns',
  'alterColumns',
  'addChecks',
  'addConstraints',
  'references',
  'invariants',
  'createIndexes',
] as const;
type Group = (typeof GROUPS)[number];

function planTable(
  name: string,
  before: TableSchema,
  after: TableSchema,
  renames: Readonly<Record<string, string>>,
) {
  const t = identifier(name);
  const refusals: string[] = [];
  const changes: string[] = [];
  const up = new Map<Group, string[]>(GROUPS.map((g) => [g, []]));
  const down = new Map<Group, string[]>(GROUPS.map((g) => [g, []]));
  /** A statement and its inverse, in a group. */
  const add = (group: Group, forward: string, inverse: string) => {
    up.get(group)!.push(forward);
    down.get(group)!.push(inverse);
  };

  const columns: Record<string, ColumnSchema> = {};
  for (const [column, was] of Object.entries(before.columns)) {
    const wanted = after.columns[column];
    const at = `${name}.${column}`;
    if (!wanted) {
      refusals.push(`${at}: column removed`);
      continue;
    }
    const now: ColumnSchema = { ...was };
    columns[column] = now;
    if (wanted.type !== was.type)
      refusals.push(`${at}: type changed from ${was.type} to ${wanted.type}`);
    if (wanted.notNull && !was.notNull)
      refusals.push(`${at}: NULL → NOT NULL (rows may hold nulls)`);
    if (!wanted.notNull && was.notNull) {
      add(
        'alterColumns',
        `ALTER TABLE ${t} ALTER COLUMN ${column} DROP NOT NULL;`,
        `ALTER TABLE ${t} ALTER COLUMN ${column} SET NOT NULL;`,
      );
      now.notNull = false;
      changes.push(`${at}: may be null`);
    }
    if (wanted.default !== was.default) {
      add(
        'alterColumns',
        setDefault(t, column, wanted.default),
        setDefault(t, column, was.default),
      );
      if (wanted.default === undefined) delete now.default;
      else now.default = wanted.default;
      changes.push(`${at}: default ${was.default ?? 'none'} → ${wanted.default ?? 'none'}`);
    }
    const check = checkName(name, column);
    if (!was.check && wanted.check) {
      refusals.push(`${at}: a check is added (only ${wanted.check.join(', ')})`);
    } else if (was.check && !wanted.check) {
      add(
        'dropChecks',
        `ALTER TABLE ${t} DROP CONSTRAINT ${check};`,
        `ALTER TABLE ${t} ADD CONSTRAINT ${check} ${checkSql(column, was.check)};`,
      );
      delete now.check;
      changes.push(`${at}: any value (check removed)`);
    } else if (was.check && wanted.check) {
      const target = wanted.check;
      const renamed =
        column === 'status'
          ? was.check.filter(
              (v) => !target.includes(v) && renames[v] !== undefined && target.includes(renames[v]),
            )
          : [];
      const removed = was.check.filter((v) => !target.includes(v) && !renamed.includes(v));
      const added = target.filter((v) => !was.check!.includes(v));
      if (removed.length) {
        refusals.push(`${at}: check narrowed (${removed.join(', ')} no longer allowed)`);
      } else if (added.length || renamed.length) {
        add(
          'dropChecks',
          `ALTER TABLE ${t} DROP CONSTRAINT ${check};`,
          `ALTER TABLE ${t} ADD CONSTRAINT ${check} ${checkSql(column, was.check)};`,
        );
        add(
          'addChecks',
          `ALTER TABLE ${t} ADD CONSTRAINT ${check} ${checkSql(column, target)};`,
          `ALTER TABLE ${t} DROP CONSTRAINT ${check};`,
        );
        now.check = [...target];
        if (renamed.length) {
          const pairs = renamed.map((v) => [v, renames[v]!] as const);
          // Back down, a value that was already allowed before keeps its rows (they cannot be told apart).
          const back = pairs
            .filter(([, to]) => !was.check!.includes(to))
            .map(([from, to]) => [to, from] as const);
          add(
            'renames',
            renameSql(t, column, pairs),
            back.length ? renameSql(t, column, back) : '',
          );
          changes.push(`${at}: renamed ${pairs.map(([from, to]) => `${from} → ${to}`).join(', ')}`);
        }
        const fresh = added.filter((v) => !renamed.some((r) => renames[r] === v));
        if (fresh.length) changes.push(`${at}: values added: ${fresh.join(', ')}`);
      }
    }
  }
  const isNew = (column: string) => !before.columns[column];
  for (const [column, wanted] of Object.entries(after.columns)) {
    if (!isNew(column)) continue;
    const at = `${name}.${column}`;
    if (wanted.notNull && wanted.default === undefined) {
      refusals.push(
        `${at}: a new required column without a default (the rows already there would have none); declare it optional`,
      );
      continue;
    }
    columns[column] = wanted;
    add(
      'addColumns',
      `ALTER TABLE ${t} ADD COLUMN ${columnSql(column, wanted)};`,
      `ALTER TABLE ${t} DROP COLUMN ${column};`,
    );
    if (wanted.check) {
      const check = checkName(name, column);
      add(
        'addChecks',
        `ALTER TABLE ${t} ADD CONSTRAINT ${check} ${checkSql(column, wanted.check)};`,
        `ALTER TABLE ${t} DROP CONSTRAINT ${check};`,
      );
    }
    changes.push(`${at}: new column (${wanted.type}${wanted.notNull ? ' NOT NULL' : ''})`);
  }

  let primaryKey = before.primaryKey;
  if (before.primaryKey.join() !== after.primaryKey.join()) {
    // A key that holds every column of the old one is unique on the rows already there (a
    // superset of a unique key is unique): widening (id) to (tenant_id, id) is safe (SPEC §19).
    const widened =
      before.primaryKey.every((c) => after.primaryKey.includes(c)) &&
      after.primaryKey.every((c) => after.columns[c]?.notNull && !isNew(c));
    if (!widened) refusals.push(`${name}: primary key changed`);
    else {
      const key = primaryKeyName(name);
      const sqlOf = (columns: readonly string[]) =>
        `ALTER TABLE ${t} DROP CONSTRAINT ${key}, ADD CONSTRAINT ${key} PRIMARY KEY (${columns.map(identifier).join(', ')});`;
      add('addConstraints', sqlOf(after.primaryKey), sqlOf(before.primaryKey));
      primaryKey = after.primaryKey;
      changes.push(
        `${name}: primary key (${before.primaryKey.join(', ')}) → (${after.primaryKey.join(', ')})`,
      );
    }
  }
  /** A key may be added only on new columns: rows already there might violate it. */
  const onNewColumns = (keyColumns: readonly string[]) =>
    keyColumns.filter((c) => c !== 'tenant_id').every(isNew);
  diffConstraints(
    before.unique,
    after.unique,
    (columns) => `UNIQUE (${columns.join(', ')})`,
    (a, b) => a.join() === b.join(),
  );
  diffConstraints(before.foreignKeys, after.foreignKeys, foreignKeySql, (a, b) => {
    return foreignKeySql(a) === foreignKeySql(b);
  });
  function diffConstraints<T extends string[] | ForeignKeySchema>(
    was: Record<string, T>,
    wanted: Record<string, T>,
    sqlOf: (value: T) => string,
    same: (a: T, b: T) => boolean,
  ) {
    for (const [constraint, value] of Object.entries(was)) {
      if (wanted[constraint] && same(wanted[constraint], value)) continue;
      add(
        'dropConstraints',
        `ALTER TABLE ${t} DROP CONSTRAINT ${constraint};`,
        `ALTER TABLE ${t} ADD CONSTRAINT ${constraint} ${sqlOf(value)};`,
      );
      changes.push(`${name}: ${sqlOf(value)} dropped`);
    }
    for (const [constraint, value] of Object.entries(wanted)) {
      if (was[constraint] && same(was[constraint], value)) continue;
      const keyColumns = Array.isArray(value) ? value : value.columns;
      if (!onNewColumns(keyColumns)) {
        refusals.push(`${name}: ${sqlOf(value)} on existing rows (they may violate it)`);
        continue;
      }
      add(
        'addConstraints',
        `ALTER TABLE ${t} ADD CONSTRAINT ${constraint} ${sqlOf(value)};`,
        `ALTER TABLE ${t} DROP CONSTRAINT ${constraint};`,
      );
      changes.push(`${name}: ${sqlOf(value)}`);
    }
  }

  const lineReferences = sameReferences(before.lineReferences, after.lineReferences)
    ? before.lineReferences
    : after.lineReferences;
  const next: TableSchema = {
    columns,
    primaryKey,
    unique: after.unique,
    foreignKeys: after.foreignKeys,
    indexes: after.indexes,
    lineReferences,
    invariants: after.invariants,
  };
  for (const invariant of after.invariants.filter((i) => !before.invariants.includes(i))) {
    const sql = invariantSql(invariant, name);
    add('invariants', sql.create, sql.drop);
    changes.push(`${name}: the database's ${invariant} rule`);
  }
  for (const invariant of before.invariants.filter((i) => !after.invariants.includes(i))) {
    const sql = invariantSql(invariant, name);
    add('invariants', sql.drop, sql.create);
    changes.push(`${name}: the database's ${invariant} rule dropped`);
  }

  if (userColumns(before).join() !== userColumns(next).join()) {
    add(
      'references',
      releaseMemberDropSql(name, before) + releaseMemberSql(name, next),
      releaseMemberDropSql(name, next) + releaseMemberSql(name, before),
    );
    changes.push(
      `${name}: users unlinked when they leave: ${userColumns(next).join(', ') || 'none'}`,
    );
  }
  if (lineReferences !== before.lineReferences) {
    const added = after.lineReferences.filter(
      (r) => !before.lineReferences.some((b) => sameReferences([b], [r])),
    );
    add(
      'references',
      lineReferencesDropSql(name, before.lineReferences) +
        existingLinesSql(name, added) +
        lineReferencesSql(name, after.lineReferences),
      lineReferencesDropSql(name, after.lineReferences) +
        lineReferencesSql(name, before.lineReferences),
    );
    changes.push(
      `${name}: line references checked: ${after.lineReferences.map((r) => `${r.field}[].${r.key} → ${r.target}`).join(', ') || 'none'}`,
    );
  }

  for (const [index, columns] of Object.entries(before.indexes)) {
    if (after.indexes[index]?.join() === columns.join()) continue;
    add('dropIndexes', `DROP INDEX ${identifier(index)};`, createIndexSql(name, index, columns));
    if (!after.indexes[index])
      changes.push(`${name}: index ${index} (${columns.join(', ')}) dropped`);
  }
  for (const [index, columns] of Object.entries(after.indexes)) {
    const was = before.indexes[index];
    if (was?.join() === columns.join()) continue;
    add('createIndexes', createIndexSql(name, index, columns), `DROP INDEX ${identifier(index)};`);
    changes.push(
      `${name}: index ${index} (${columns.join(', ')})${was ? ` replaces (${was.join(', ')})` : ''}`,
    );
  }

  const upSql = GROUPS.flatMap((g) => up.get(g)!).filter(Boolean);
  const downSql = [...GROUPS]
    .reverse()
    .flatMap((g) => [...down.get(g)!].reverse())
    .filter(Boolean);
  const step =
    upSql.length && refusals.length === 0
      ? { table: name, up: joined(upSql), down: joined(downSql) }
      : null;
  return { refusals, changes, step, next };
}

function setDefault(table: string, column: string, value: string | undefined): string {
  return value === undefined
    ? `ALTER TABLE ${table} ALTER COLUMN ${column} DROP DEFAULT;`
    : `ALTER TABLE ${table} ALTER COLUMN ${column} SET DEFAULT ${value};`;
}

/**
 * Rewrites renamed values with a new version and `updated_at` (the record as the API returns
 * it changed: ETags and `updated_at=gt.` syncs must see it); no event, since nothing happened
 * to the record in the business's sense.
 */
function renameSql(table: string, column: string, pairs: readonly (readonly [string, string])[]) {
  const cases = pairs.map(([from, to]) => `WHEN ${literal(from)} THEN ${literal(to)}`).join(' ');
  return withoutForcedSecurity(
    table,
    `UPDATE ${table} SET ${column} = CASE ${column} ${cases} END, version = version + 1, updated_at = now()
 WHERE ${column} IN (${pairs.map(([from]) => literal(from)).join(', ')});`,
  );
}

function sameReferences(a: readonly LineReference[], b: readonly LineReference[]): boolean {
  const key = (refs: readonly LineReference[]) =>
    refs
      .map((r) => `${r.field}.${r.key}>${r.target}`)
      .sort()
      .join();
  return key(a) === key(b);
}

function joined(statements: string[]): string {
  return `${statements.map((s) => s.trimEnd()).join('\n')}\n`;
}
