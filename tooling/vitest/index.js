// Plain JavaScript: vitest loads its config files with Node, which cannot import TypeScript
// from another workspace package (types: index.d.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';

const databaseSetup = fileURLToPath(new URL('./database-setup.ts', import.meta.url));

/**
 * The config of a package whose tests use a real PostgreSQL (`createTestDatabase` from
 * `@erp/db/testing`): the server and its migrated template start once per run, each test file
 * clones the template. `overrides` are merged in (longer timeouts, one file at a time...).
 *
 * @param {import('vitest/config').ViteUserConfig} [overrides]
 * @returns {import('vitest/config').ViteUserConfig}
 */
export function databaseTests(overrides = {}) {
  return mergeConfig(
    defineConfig({
      test: { globalSetup: [databaseSetup], testTimeout: 20_000, hookTimeout: 120_000 },
    }),
    overrides,
  );
}
