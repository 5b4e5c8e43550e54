import { defineConfig } from 'tsup';

/**
 * The container image's entry points: the worker (`dist/main.js`) and the deploy's migration
 * step (`dist/migrate.js`); workspace packages are bundled, npm ones stay external.
 */
export default defineConfig({
  entry: { main: 'src/main.ts', migrate: 'src/migrate.ts' },
  format: ['esm'],
  target: 'node24',
  platform: 'node',
  sourcemap: true,
  clean: true,
  noExternal: [/^@erp\//],
  // Every npm package stays external, the workspace packages' own included: inlined, a second
  // copy of a library (zod-to-openapi) would miss the state the external one holds. The
  // images test checks the bundle imports only the app's dependencies.
  skipNodeModulesBundle: true,
});
