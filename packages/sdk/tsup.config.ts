import { defineConfig } from 'tsup';

/** ESM, CJS and declarations, for integrators who would rather vendor built files than src/. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  clean: true,
});
