import { openDatabase } from './index';
import { migrateToLatest } from './migrate';

/** `pnpm --filter @erp/db migrate`: applies pending migrations to DATABASE_URL (deploy step). */
const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('migrate: DATABASE_URL is required\n');
  process.exit(1);
}
const database = openDatabase({ url, max: 1, applicationName: 'migrate' });
try {
  const { results = [] } = await migrateToLatest(database);
  for (const r of results) process.stdout.write(`migrate: ${r.status} ${r.migrationName}\n`);
  if (results.length === 0) process.stdout.write('migrate: up to date\n');
} catch (error) {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
