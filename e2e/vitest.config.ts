import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The browser tests have their own config (browser/vitest.config.ts).
    include: ['test/**/*.test.ts'],
    // The database server, its template, and the seed written into it once per run.
    globalSetup: ['./test/global-setup.ts'],
    // Each file starts three apps: one file at a time keeps a 2-core machine responsive.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
