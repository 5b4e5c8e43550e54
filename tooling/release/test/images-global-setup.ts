import { setupTestDatabaseServer } from '@erp/db/testing';
import type { TestProject } from 'vitest/node';

/** The PostgreSQL the image test's apps run against (DATABASE_URL, else an embedded one). */
export default (project: TestProject) => setupTestDatabaseServer(project);
