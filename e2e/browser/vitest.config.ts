import { databaseTests } from '@erp/vitest-config';

/**
 * The browser tests (`pnpm --filter @erp/e2e test:browser`): each file starts the real apps
 * and a Chromium, so one file at a time, and longer timeouts than the API tests (keyboard
 * flows and screenshots at two widths take seconds each on a 2-core machine).
 */
export default databaseTests({
  test: {
    include: ['browser/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
