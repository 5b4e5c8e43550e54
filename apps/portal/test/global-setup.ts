import type { TestProject } from 'vitest/node';
import { setupTestDatabaseServer } from '@erp/db/testing';

export default (project: TestProject) => setupTestDatabaseServer(project);
