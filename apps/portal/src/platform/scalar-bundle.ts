import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PACKAGE = '@scalar/api-reference';

/**
 * Scalar's standalone browser build in the installed package: one self-contained script that
 * defines `window.Scalar`. The package no longer exports it as a subpath (1.52 narrowed its
 * exports to the Vue entry points); its manifest's `browser` field still names it, so it is
 * found through the manifest, not a path guessed inside `dist`. `fromDir`: a directory whose
 * node_modules see the package (the portal's). Used by the build (tsup.config.ts) and, run
 * from source, by the route.
 */
export function scalarStandaloneBundle(fromDir: string): string {
  const entry = createRequire(path.join(fromDir, 'package.json')).resolve(PACKAGE);
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    const manifest = readManifest(path.join(dir, 'package.json'));
    if (manifest?.name === PACKAGE) {
      if (typeof manifest.browser !== 'string')
        throw new Error(`${PACKAGE} ${manifest.version}: no "browser" build in its package.json`);
      return path.join(dir, manifest.browser);
    }
    if (path.dirname(dir) === dir) throw new Error(`${PACKAGE}: no package.json above ${entry}`);
  }
}

function readManifest(
  file: string,
): { name?: string; version?: string; browser?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
