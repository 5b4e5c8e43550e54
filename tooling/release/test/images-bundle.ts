import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';

/** The package a bare specifier names: `@scope/name` or `name`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The npm packages a bundle in `dist` imports (esbuild writes each static import on lines of
 * its own: `import … from "x";`, `} from "x";`, `import "x";`), Node's built-ins left out.
 */
export function importedPackages(dist: string): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(path.join(dist, file), 'utf8');
    for (const match of text.matchAll(/^(?:import .* from |\} from |import )"([^".][^"]*)";$/gm)) {
      const specifier = match[1] ?? '';
      if (!isBuiltin(specifier)) found.add(packageOf(specifier));
    }
    // A dynamic import or require() of a package would escape the list above.
    for (const match of text.matchAll(/\b(?:import|require)\(\s*"([^".][^"]*)"\s*\)/g)) {
      const specifier = match[1] ?? '';
      if (!isBuiltin(specifier)) found.add(packageOf(specifier));
    }
  }
  return [...found].sort();
}

/** The npm packages whose code the bundle inlined, from its source maps' `sources`. */
export function inlinedPackages(dist: string): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js.map'))) {
    const { sources } = JSON.parse(readFileSync(path.join(dist, file), 'utf8')) as {
      sources: string[];
    };
    for (const source of sources) {
      const inside = source.split('node_modules/').at(-1);
      if (inside !== undefined && inside !== source) found.add(packageOf(inside));
    }
  }
  return [...found].sort();
}
