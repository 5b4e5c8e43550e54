import { databaseTests } from '@erp/vitest-config';

export default databaseTests({
  test: {
    // The image test installs and builds whole apps: minutes, not seconds.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
