import { databaseTests } from '@erp/vitest-config';

export default databaseTests();
