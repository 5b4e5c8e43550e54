import { defineConfig } from 'tsup';

/**
 * The container image's entry points: the worker (`dist/main.js`) and the deploy's migration
 * step (`dist/migrate.js`); workspace packages are bundled, npm ones stay external.
 */
export default defineConfig({
  entry: { main: 'src/main.ts', migrate: 'src/migrate.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  noExternal: [/^@erp\//],
  // Bundled CommonJS dependencies of the workspace packages (pg) still call require().
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
});
