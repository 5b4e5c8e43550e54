import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineResource, enumOf, type Resource, text } from '@erp/contract';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, rollingBack, type TestDatabase } from '../testing';
import { createTableSql } from './ddl';
import { generateSchemaMigration } from './generate';
import { introspectTables } from './introspect';
import { catalogueSchema } from './model';
import { parseSnapshot, serializeSnapshot } from './snapshot';

/**
 * The command's files: one migration written and registered, the snapshot moved on; a refusal
 * writes nothing. The written migration is imported and run, as the migrator would.
 */
let tdb: TestDatabase;
let dir: string;
beforeAll(async () => {
  tdb = await createTestDatabase();
  // Inside the package, so the written migration resolves `kysely` when it is imported.
  const cache = new URL('../../node_modules/.cache/', import.meta.url).pathname;
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(path.join(cache, 'schema-migration-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await tdb.close();
});

const bin = (values: [string, ...string[]]) =>
  defineResource({
    name: 'fx_bin',
    path: 'fx-bins',
    module: 'inventory',
    description: 'A fixture.',
    fields: { code: text({ required: true, filterable: true }), colour: enumOf(values) },
  });

const INDEX = `import type { Migration } from 'kysely/migration';
import * as first from './2026-01-01-0001-first';

/** Every migration, in order. */
export const migrations: Record<string, Migration> = {
  '2026-01-01-0001-first': first,
};
`;

function workspace(name: string, snapshotOf: Resource[]) {
  const root = path.join(dir, name);
  const migrationsDir = path.join(root, 'migrations');
  mkdirSync(migrationsDir, { recursive: true });
  writeFileSync(path.join(migrationsDir, 'index.ts'), INDEX);
  writeFileSync(path.join(migrationsDir, '2026-01-01-0001-first.ts'), 'export {};\n');
  const snapshotFile = path.join(root, 'catalogue.snapshot.json');
  writeFileSync(
    snapshotFile,
    serializeSnapshot({ migration: '2026-01-01-0001-first', schema: catalogueSchema(snapshotOf) }),
  );
  const files = () =>
    Object.fromEntries(
      [snapshotFile, ...readdirSync(migrationsDir).map((f) => path.join(migrationsDir, f))].map(
        (f) => [path.basename(f), readFileSync(f, 'utf8')],
      ),
    );
  return { migrationsDir, snapshotFile, files };
}

describe('generateSchemaMigration', () => {
  it('writes one migration, registers it, moves the snapshot on; then has nothing to do', async () => {
    const ws = workspace('widen', [bin(['red'])]);
    const options = {
      resources: [bin(['red', 'blue'])],
      renames: {},
      snapshotFile: ws.snapshotFile,
      migrationsDir: ws.migrationsDir,
      date: '2026-02-03',
    };
    expect(generateSchemaMigration(options)).toEqual({
      status: 'written',
      migration: '2026-02-03-0002-catalogue-schema',
      changes: ['fx_bins.colour: values added: blue'],
    });
    const files = ws.files();
    expect(Object.keys(files).sort()).toEqual([
      '2026-01-01-0001-first.ts',
      '2026-02-03-0002-catalogue-schema.ts',
      'catalogue.snapshot.json',
      'index.ts',
    ]);
    expect(files['index.ts']).toContain(
      "import * as catalogueSchema2 from './2026-02-03-0002-catalogue-schema';\n",
    );
    expect(files['index.ts']).toContain(
      "  '2026-02-03-0002-catalogue-schema': catalogueSchema2,\n};\n",
    );
    const snapshot = parseSnapshot(files['catalogue.snapshot.json']!);
    expect(snapshot.migration).toBe('2026-02-03-0002-catalogue-schema');
    expect(snapshot.schema.tables.fx_bins!.columns.colour!.check).toEqual(['red', 'blue']);
    expect(generateSchemaMigration(options)).toEqual({ status: 'unchanged' });

    // The migration, imported as the migrator imports it, does what the snapshot says.
    const migration = (await import(
      path.join(ws.migrationsDir, '2026-02-03-0002-catalogue-schema.ts')
    )) as Migration;
    const read = await rollingBack(tdb.db, async (trx) => {
      await sql
        .raw(createTableSql('fx_bins', catalogueSchema([bin(['red'])]).tables.fx_bins!))
        .execute(trx);
      await migration.up(trx);
      const up = await introspectTables(trx, ['fx_bins']);
      await migration.down!(trx);
      return { up, down: await introspectTables(trx, ['fx_bins']) };
    });
    expect(read.up).toEqual(snapshot.schema);
    expect(read.down).toEqual(catalogueSchema([bin(['red'])]));
  });

  it('refuses a destructive change with one line per problem, and writes nothing', () => {
    const ws = workspace('narrow', [bin(['red', 'blue'])]);
    const before = ws.files();
    const result = generateSchemaMigration({
      resources: [bin(['red'])],
      renames: {},
      snapshotFile: ws.snapshotFile,
      migrationsDir: ws.migrationsDir,
    });
    expect(result).toEqual({
      status: 'refused',
      refusals: ['fx_bins.colour: check narrowed (blue no longer allowed)'],
    });
    expect(ws.files()).toEqual(before);
  });

  it('names a migration of new tables after them, and plans without writing on a dry run', () => {
    const ws = workspace('dry', []);
    const before = ws.files();
    expect(
      generateSchemaMigration({
        resources: [bin(['red'])],
        renames: {},
        snapshotFile: ws.snapshotFile,
        migrationsDir: ws.migrationsDir,
        date: '2026-02-03',
        dryRun: true,
      }),
    ).toEqual({
      status: 'planned',
      migration: '2026-02-03-0002-tables-fx-bins',
      changes: ['fx_bins: new table'],
    });
    expect(ws.files()).toEqual(before);
  });
});
