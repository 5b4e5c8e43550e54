import { catalogue } from '@erp/contract';
import { openDatabase } from '@erp/db';
import { createTenantDatabase } from '../src/resources';
import { DEMO_ADMIN_EMAIL, seedDemo } from './demo';
import { seedDemoRecords } from './demo-records';

/** `pnpm --filter @erp/portal seed`: plans and the demo tenant on DATABASE_URL. */
const url = process.env.DATABASE_URL;
const password = process.env.SEED_ADMIN_PASSWORD;
if (!url || !password) {
  process.stderr.write('seed: DATABASE_URL and SEED_ADMIN_PASSWORD are required\n');
  process.exit(1);
}
const database = openDatabase({ url, max: 1 });
const demo = await seedDemo(database.db, password);
const tenantDb = createTenantDatabase({ url, max: 1 });
const records = await seedDemoRecords(tenantDb, demo.tenantId, catalogue, 12, [demo.adminId]);
await tenantDb.close();
await database.close();
process.stdout.write(
  `seed: tenant demo, admin ${DEMO_ADMIN_EMAIL}, ${records ? `${records} business records` : 'business records already there'}\n`,
);
