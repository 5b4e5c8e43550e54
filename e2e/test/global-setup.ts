import { randomBytes } from 'node:crypto';
import { setupTestDatabaseServer } from '@erp/db/testing';
import type { TestProject } from 'vitest/node';
import { runToEnd } from './platform';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eAdminPassword: string;
  }
}

/**
 * One PostgreSQL and a migrated template for the run (as every package's tests), then the
 * portal's seed written into the template once: each file's platform clones a seeded
 * database in a second instead of seeding the whole catalogue's demo data itself.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let templateUrl = '';
  const teardown = await setupTestDatabaseServer({
    provide(key, value) {
      const url = new URL(value.adminUrl);
      url.pathname = `/${value.template}`;
      templateUrl = url.href;
      project.provide(key, value);
    },
  });
  const adminPassword = randomBytes(12).toString('base64url');
  try {
    await runToEnd('portal', ['--import', 'tsx', 'seed/main.ts'], {
      DATABASE_URL: templateUrl,
      SEED_ADMIN_PASSWORD: adminPassword,
    });
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('e2eAdminPassword', adminPassword);
  return teardown;
}
