import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The browser tests (`pnpm --filter @erp/e2e test:browser`): each file starts the real apps
 * and a Chromium, so one file at a time, and longer timeouts than the API tests (keyboard
 * flows and screenshots at two widths take seconds each on a 2-core machine). The same
 * seeded template as the API tests (test/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['browser/**/*.test.ts'],
    globalSetup: [path.join(import.meta.dirname, '../test/global-setup.ts')],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // `expect.poll` waits 1 s by default: a login's round trip through three apps and
    // Chromium takes longer than that on two cores shared with every other package's tests.
    expect: { poll: { timeout: 20_000 } },
  },
});
