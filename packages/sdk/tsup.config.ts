import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The module entries codegen wrote (one per `src/gen/<module>.gen.d.ts` but the shared pieces).
const modules = readdirSync(new URL('./src/gen', import.meta.url))
  .map((name) => name.replace('.gen.d.ts', ''))
  .filter((name) => name !== 'shared' && name !== 'webhooks');

/** ESM, CJS and declarations, for integrators who would rather vendor built files than src/. */
export default defineConfig({
  entry: ['src/index.ts', 'src/webhooks.ts', ...modules.map((m) => `src/${m}.ts`)],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  clean: true,
});
