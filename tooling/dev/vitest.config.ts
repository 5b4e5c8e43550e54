import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The dev test starts the whole platform (PostgreSQL, migrations, seed, three apps): a
    // minute, not seconds. Its files run one at a time: each starts every app.
    testTimeout: 420_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
