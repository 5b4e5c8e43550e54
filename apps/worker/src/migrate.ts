import { migrateToLatest, openDatabase } from '@erp/db';
import { createLogger } from '@erp/logger';
import { z } from 'zod';

/**
 * The deploy's migration step, shipped in the worker's image as `node dist/migrate.js`: applies
 * the job queue's schema and every pending migration to DATABASE_URL once, before the apps
 * start (compose: a one-shot service; Kubernetes: a Job). Exits 0 when up to date.
 */
async function migrate(): Promise<void> {
  const parsed = z
    .object({ DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }) })
    .safeParse(process.env);
  if (!parsed.success) {
    process.stderr.write(
      'migrate: invalid configuration: DATABASE_URL: must be a PostgreSQL URL\n',
    );
    process.exit(1);
  }
  const logger = createLogger('info', 'migrate');
  const database = openDatabase({
    url: parsed.data.DATABASE_URL,
    max: 1,
    applicationName: 'migrate',
  });
  try {
    const { results = [] } = await migrateToLatest(database);
    for (const r of results) logger.info('migration', { name: r.migrationName, status: r.status });
    logger.info('migrations up to date', { applied: results.length });
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
