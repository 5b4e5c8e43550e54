import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { citusScript, distributionGaps, readTables } from '../src/catalogue-schema/distribution';
import { withMigratedDatabase } from './migrated-database';

/**
 * `pnpm --filter @erp/db citus-script`: from a freshly migrated database, writes docs/citus.sql
 * (the reference and distributed tables, co-located by tenant) and prints what still keeps the
 * schema from being distributed (docs/scale-out.md).
 */
const target = fileURLToPath(new URL('../../../docs/citus.sql', import.meta.url));
const { script, gaps } = await withMigratedDatabase(async ({ pool }) => {
  const tables = await readTables(pool);
  return { script: citusScript(tables), gaps: distributionGaps(tables) };
});
writeFileSync(target, script);
console.log(`citus-script: wrote ${target}`);
console.log(`${gaps.length} gaps left:\n${gaps.map((g) => `  ${g}`).join('\n')}`);
