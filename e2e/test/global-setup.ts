import { setupTestDatabaseServer } from '@erp/db/testing';
import type { TestProject } from 'vitest/node';

export default (project: TestProject) => setupTestDatabaseServer(project);
