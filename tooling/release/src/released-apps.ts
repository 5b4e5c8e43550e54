import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listApps, option } from './apps';

/**
 * Which apps a release commit released, read from the git tags `changeset tag` put on it
 * (`@erp/portal@0.2.0`; private packages are tagged: `.changeset/config.json`
 * `privatePackages.tag`). The release workflow builds and pushes one image per entry.
 *
 * `pnpm exec tsx tooling/release/src/released-apps.ts --registry ghcr.io/<owner> [--ref HEAD]`
 * prints a JSON array of `{ app, package, version, image }` (`[]` when nothing was released).
 */
export interface ReleasedApp {
  app: string;
  package: string;
  version: string;
  /** Repository of the image, without tag: `ghcr.io/acme/portal` (lowercase, as registries require). */
  image: string;
}

/**
 * The apps among `tags` whose tag names the app's current version (a tag of an older
 * version, or of a library, is not an image to build). Sorted by app, one entry per app.
 */
export function releasedApps(
  tags: readonly string[],
  apps: readonly { app: string; package: string; version: string }[],
  registry: string,
): ReleasedApp[] {
  const prefix = registry.toLowerCase().replace(/\/+$/, '');
  const tagged = new Set(tags.map((tag) => tag.trim()).filter(Boolean));
  return apps
    .filter((app) => tagged.has(`${app.package}@${app.version}`))
    .map((app) => ({
      app: app.app,
      package: app.package,
      version: app.version,
      image: `${prefix}/${app.app}`,
    }));
}

/** The tags pointing at `ref` in the git repository at `root`. */
export function tagsAt(root: string, ref: string): string[] {
  return execFileSync('git', ['tag', '--points-at', ref], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

function main(argv: readonly string[]): void {
  const root = resolve(option(argv, 'root') ?? process.cwd());
  const registry = option(argv, 'registry');
  if (!registry) {
    process.stderr.write('released-apps: --registry <host/owner> is required\n');
    process.exit(2);
  }
  const released = releasedApps(
    tagsAt(root, option(argv, 'ref') ?? 'HEAD'),
    listApps(root),
    registry,
  );
  process.stdout.write(`${JSON.stringify(released)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2));
}
