import { setupTestDatabaseServer } from '@erp/db/testing';
import type { TestProject } from 'vitest/node';

/** Vitest global setup: one PostgreSQL and a migrated template database for the whole run. */
export default (project: TestProject) => setupTestDatabaseServer(project);
