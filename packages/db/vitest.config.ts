import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Creating and dropping the whole catalogue (180+ tables) takes seconds on two cores.
  test: { globalSetup: ['./test/global-setup.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
});
