import { writeFileSync } from 'node:fs';
import { introspectDatabaseTypes, renderDatabaseTypes } from '../src/database-types';
import { withMigratedDatabase } from './migrated-database';

/**
 * `pnpm --filter @erp/db codegen` (and `pnpm codegen`): src/database.gen.ts, the Kysely
 * `Database` type, from a throw-away embedded PostgreSQL every migration has been applied to.
 */
const started = performance.now();
const tables = await withMigratedDatabase(({ db }) => introspectDatabaseTypes(db));
const file = new URL('../src/database.gen.ts', import.meta.url);
writeFileSync(file, renderDatabaseTypes(tables));
console.log(
  `database-types: wrote src/database.gen.ts (${tables.length} tables) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
