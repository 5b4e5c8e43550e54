import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The image test installs and builds whole apps: minutes, not seconds.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    // A real PostgreSQL for the apps the image test starts.
    globalSetup: ['./test/images-global-setup.ts'],
  },
});
