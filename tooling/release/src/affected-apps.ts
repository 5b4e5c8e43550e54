import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listApps, option } from './apps';

/**
 * Which apps' images a change can alter, for CI's image builds (no push).
 *
 * `pnpm exec tsx tooling/release/src/affected-apps.ts --base <ref>` prints a JSON array of app
 * names (`["landing","portal"]`): the apps turbo finds changed or depending on a changed
 * package (`turbo ls --filter=...[<base>]`), or every app when a file every image is built from
 * changed (root files belong to no package, so turbo's filter misses them), or when `<base>`
 * is unknown (first push of a branch, shallow history).
 */

/**
 * Files outside the packages every image is built from: a change rebuilds every app. (Not `pnpm-lock.yaml`:
 * turbo maps a lockfile change to the packages whose dependencies changed.)
 */
const IMAGE_WIDE = [
  /^Dockerfile(\..+)?$/,
  /^[^/]+\.Dockerfile$/,
  /^\.dockerignore$/,
  /^package\.json$/,
  /^pnpm-workspace\.yaml$/,
  /^\.npmrc$/,
  /^turbo\.json$/,
  // Files the Dockerfile copies into every image (its health check).
  /^deploy\/image\//,
];

export function isImageWide(file: string): boolean {
  return IMAGE_WIDE.some((pattern) => pattern.test(file));
}

export function affectedApps(input: {
  apps: readonly { app: string }[];
  /** Files changed since the base, relative to the root; `undefined` when the base is unknown. */
  changedFiles: readonly string[] | undefined;
  /** Directories (relative to the root) of the packages turbo's `...[base]` filter selects. */
  turboPaths: readonly string[];
}): string[] {
  const all = input.apps.map((app) => app.app).sort();
  if (!input.changedFiles || input.changedFiles.some(isImageWide)) return all;
  const selected = new Set(
    input.turboPaths.map((path) => path.replace(/\\/g, '/').replace(/\/+$/, '')),
  );
  return all.filter((app) => selected.has(`apps/${app}`));
}

/** `packages.items[].path` of `turbo ls --output=json` (the text before the JSON is skipped). */
export function parseTurboLs(output: string): string[] {
  const json = JSON.parse(output.slice(output.indexOf('{'))) as {
    packages?: { items?: { path?: string }[] };
  };
  return (json.packages?.items ?? []).flatMap((item) => (item.path ? [item.path] : []));
}

function git(root: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function main(argv: readonly string[]): void {
  const root = resolve(option(argv, 'root') ?? process.cwd());
  const base = option(argv, 'base') ?? '';
  const apps = listApps(root);
  let changedFiles: string[] | undefined;
  let turboPaths: string[] = [];
  const known = (() => {
    if (!base || /^0+$/.test(base)) return false;
    try {
      git(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
      return true;
    } catch {
      return false;
    }
  })();
  if (known) {
    changedFiles = git(root, ['diff', '--name-only', `${base}...HEAD`])
      .split('\n')
      .filter(Boolean);
    turboPaths = parseTurboLs(
      execFileSync('pnpm', ['exec', 'turbo', 'ls', `--filter=...[${base}]`, '--output=json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
      }),
    );
  } else {
    process.stderr.write(`affected-apps: base "${base}" unknown here: every app\n`);
  }
  process.stdout.write(`${JSON.stringify(affectedApps({ apps, changedFiles, turboPaths }))}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2));
}
