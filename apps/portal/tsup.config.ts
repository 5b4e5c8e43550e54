import { cp, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig } from 'tsup';
import { scalarStandaloneBundle } from './src/platform/scalar-bundle';

// The console's build, which the portal ships beside its bundle (src/console/routes.ts looks for
// dist/console when it runs bundled). `pnpm --filter "@erp/portal..." build` builds it first.
const CONSOLE_BUILD = path.resolve('../console/dist');
// Scalar's browser bundle, which GET /api/v1/docs serves (src/platform/api-reference.ts looks
// for dist/api-reference/scalar.js when it runs bundled): a build-time dependency only, so the
// image carries one file, not the package and its dependencies.
const SCALAR_BUNDLE = scalarStandaloneBundle(path.resolve('.'));
// The official EN 16931 rules (SPEC §20) and the CII schema, which the e-invoices' validator reads
// at run time (packages/einvoicing/src/validate.ts looks for dist/einvoicing-rules when bundled),
// with their EUPL-1.2 licence.
const EINVOICING_RULES = path.resolve('../../packages/einvoicing/rules');
// The committed OpenAPI document, which GET /api/v1/openapi.json serves byte for byte (read from
// dist/openapi.json when bundled, src/platform/committed-openapi.ts): a file, not a JSON import,
// which would put the whole document in the bundle as an object literal (~90 MB of RSS).
const OPENAPI_DOCUMENT = path.resolve('../../packages/contract/openapi.json');

/** One ESM file for the container image; workspace packages are bundled, npm ones stay external. */
export default defineConfig({
  entry: ['src/main.ts'],
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
  async onSuccess() {
    await mkdir('dist/api-reference', { recursive: true });
    await cp(SCALAR_BUNDLE, 'dist/api-reference/scalar.js');
    await cp(OPENAPI_DOCUMENT, 'dist/openapi.json');
    for (const part of ['sef', 'xsd', 'LICENSE-EUPL-1.2.txt', 'README.md'])
      await cp(path.join(EINVOICING_RULES, part), path.join('dist/einvoicing-rules', part), {
        recursive: true,
      });
    const built = await stat(path.join(CONSOLE_BUILD, 'index.html')).then(
      () => true,
      () => false,
    );
    if (!built) {
      console.warn(
        `portal build: no console build in ${CONSOLE_BUILD}: dist/main.js will answer / with 503 (run \`pnpm --filter @erp/console build\` first)`,
      );
      return;
    }
    await cp(CONSOLE_BUILD, 'dist/console', { recursive: true });
  },
});
