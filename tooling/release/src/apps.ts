import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A deployable: a workspace package under `apps/`, one container image each. */
export interface App {
  /** Directory name under `apps/`, also the image's name: `portal`. */
  app: string;
  /** Package name, which the changesets tags carry: `@erp/portal`. */
  package: string;
  version: string;
}

/**
 * The apps of the workspace at `root`, sorted by name: every `apps/<dir>/package.json` with a
 * `start` script (what its image runs). The console has none: the portal's image ships it.
 */
export function listApps(root: string): App[] {
  const appsDir = join(root, 'apps');
  const apps: App[] = [];
  for (const entry of readdirSync(appsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let manifest: { name?: string; version?: string; scripts?: { start?: string } };
    try {
      manifest = JSON.parse(readFileSync(join(appsDir, entry.name, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (!manifest.name || !manifest.version || !manifest.scripts?.start) continue;
    apps.push({ app: entry.name, package: manifest.name, version: manifest.version });
  }
  return apps.sort((a, b) => a.app.localeCompare(b.app));
}

/** Value of `--name <value>` or `--name=<value>` in `argv`. */
export function option(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === `--${name}`) return argv[i + 1];
    if (arg?.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}
