import type { TestProject } from 'vitest/node';
import { setupTestDatabaseServer } from '../src/testing';

export default (project: TestProject) => setupTestDatabaseServer(project);
