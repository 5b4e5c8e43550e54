import { databaseTests } from '@erp/vitest-config';

export default databaseTests({
  test: {
    // The browser tests have their own config (browser/vitest.config.ts).
    include: ['test/**/*.test.ts'],
    // Each file starts three apps: one file at a time keeps a 2-core machine responsive.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
