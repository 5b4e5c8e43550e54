import { defineConfig } from 'tsup';

/** One ESM file for the container image; workspace packages are bundled, npm ones stay external. */
export default defineConfig({
  entry: ['src/main.ts'],
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
