import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogue, RENAMED_STATUSES } from '@erp/contract';
import { generateSchemaMigration } from '../src/catalogue-schema/generate';
import { introspectTables } from '../src/catalogue-schema/introspect';
import { catalogueSchema } from '../src/catalogue-schema/model';
import { serializeSnapshot } from '../src/catalogue-schema/snapshot';
import { migrations } from '../src/migrations/index';
import { withMigratedDatabase } from './migrated-database';

/**
 * `pnpm --filter @erp/db schema-migration [--name <words>] [--dry-run]`: compares the
 * catalogue's declarations with schema/catalogue.snapshot.json and writes the one migration
 * that brings the database to them (registered in the index), with the next snapshot; a
 * destructive change is refused, one line per problem, and nothing is written (exit 1).
 * `--bootstrap` (once, without a snapshot): reads the snapshot from a migrated database.
 */
const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    bootstrap: { type: 'boolean', default: false },
  },
});
const snapshotFile = fileURLToPath(new URL('../schema/catalogue.snapshot.json', import.meta.url));
const migrationsDir = fileURLToPath(new URL('../src/migrations/', import.meta.url));

if (values.bootstrap) {
  if (existsSync(snapshotFile)) {
    console.error(
      `schema-migration: ${snapshotFile} exists; the bootstrap is for a repository without one`,
    );
    process.exit(1);
  }
  const names = Object.keys(catalogueSchema(catalogue).tables);
  const schema = await withMigratedDatabase(({ db }) => introspectTables(db, names));
  const migration = Object.keys(migrations).at(-1)!;
  writeFileSync(snapshotFile, serializeSnapshot({ migration, schema }));
  console.log(
    `schema-migration: wrote the snapshot of ${Object.keys(schema.tables).length} tables as of ${migration}`,
  );
  process.exit(0);
}

const result = generateSchemaMigration({
  resources: catalogue,
  renames: RENAMED_STATUSES,
  snapshotFile,
  migrationsDir,
  name: values.name,
  dryRun: values['dry-run'],
});
if (result.status === 'refused') {
  console.error('schema-migration: refused, nothing written:');
  for (const line of result.refusals) console.error(`  ${line}`);
  process.exit(1);
}
if (result.status === 'unchanged') {
  console.log('schema-migration: the database already matches the declarations');
} else {
  console.log(
    `schema-migration: ${result.status === 'planned' ? 'would write' : 'wrote'} ${result.migration}.ts${result.status === 'written' ? ', registered it and updated the snapshot' : ''}:`,
  );
  for (const line of result.changes) console.log(`  ${line}`);
}
