import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApps } from '../src/apps';
import { releasedApps, tagsAt } from '../src/released-apps';
import { loadRepo } from './workflows-check';

/**
 * `.changeset/config.json` versions and tags the private apps, shown by the workspace's own
 * changesets CLI. The checks run in a throw-away git repository holding a copy of the
 * workspace's manifests and changesets config (not the sources): it never depends on the
 * changesets pending in `.changeset/`, on the branch checked out, or on a remote (`changeset
 * status` diffs against `baseBranch`, `main`, which the copy has).
 */

const root = resolve(import.meta.dirname, '../../..');
const changeset = join(root, 'node_modules/.bin/changeset');
const APPS = ['@erp/landing', '@erp/portal', '@erp/worker'];

// A hermetic git: no user or system config (signing, hooks), a fixed identity.
const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'release test',
  GIT_AUTHOR_EMAIL: 'release-test@example.invalid',
  GIT_COMMITTER_NAME: 'release test',
  GIT_COMMITTER_EMAIL: 'release-test@example.invalid',
};

let work: string;
const run = (file: string, args: string[]) =>
  execFileSync(file, args, {
    cwd: work,
    env: gitEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
const git = (...args: string[]) => run('git', args);

function version(dir: string): string {
  return (JSON.parse(readFileSync(join(work, dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

function bumpMinor(v: string): string {
  const [major, minor] = v.split('.').map(Number) as [number, number];
  return `${major}.${minor + 1}.0`;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'erp-changesets-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    mkdirSync(dirname(join(work, file)), { recursive: true });
    cpSync(join(root, file), join(work, file));
  }
  for (const pkg of loadRepo(root).packages) {
    mkdirSync(join(work, pkg.dir), { recursive: true });
    cpSync(join(root, pkg.dir, 'package.json'), join(work, pkg.dir, 'package.json'));
  }
  // `changeset version` loads the changelog generator (`@changesets/cli/changelog`) from here.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  writeFileSync(join(work, '.gitignore'), 'node_modules\n');
  git('init', '--quiet', '--initial-branch=main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'workspace manifests');
  writeFileSync(
    join(work, '.changeset/release-test-apps.md'),
    `---\n${APPS.map((name) => `"${name}": minor`).join('\n')}\n---\n\nRelease test: every app.\n`,
  );
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('.changeset/config.json', () => {
  it('versions and tags private packages, and the apps are private', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8')) as {
      privatePackages?: { version?: boolean; tag?: boolean };
      baseBranch?: string;
    };
    expect(config.privatePackages).toEqual({ version: true, tag: true });
    expect(config.baseBranch).toBe('main');
    for (const app of listApps(root)) {
      const manifest = JSON.parse(
        readFileSync(join(root, 'apps', app.app, 'package.json'), 'utf8'),
      );
      expect(manifest.private, app.package).toBe(true);
    }
    expect(listApps(root).map((app) => app.package)).toEqual(APPS);
  });
});

describe('changeset status, version and tag on a copy of the workspace', () => {
  it('status lists the private apps a changeset names among the releases', () => {
    run(changeset, ['status', '--output=changeset-status.json']);
    const status = JSON.parse(readFileSync(join(work, 'changeset-status.json'), 'utf8')) as {
      changesets: { summary: string; releases: { name: string; type: string }[] }[];
      releases: { name: string; type: string; oldVersion: string; newVersion: string }[];
    };
    expect(status.changesets).toHaveLength(1);
    expect(status.changesets[0]?.summary).toBe('Release test: every app.');
    for (const name of APPS) {
      const dir = `apps/${name.replace('@erp/', '')}`;
      expect(status.releases).toContainEqual({
        name,
        type: 'minor',
        oldVersion: version(dir),
        newVersion: bumpMinor(version(dir)),
        changesets: ['release-test-apps'],
      });
    }
    rmSync(join(work, 'changeset-status.json'));
  });

  it('version bumps the apps, tag tags them, and released-apps lists their images', () => {
    const before = Object.fromEntries(
      APPS.map((name) => [name, version(`apps/${name.replace('@erp/', '')}`)]),
    );
    run(changeset, ['version']);
    for (const name of APPS) {
      const dir = `apps/${name.replace('@erp/', '')}`;
      expect(version(dir)).toBe(bumpMinor(before[name] as string));
      expect(readFileSync(join(work, dir, 'CHANGELOG.md'), 'utf8')).toContain(
        'Release test: every app.',
      );
    }
    git('add', '.');
    git('commit', '--quiet', '-m', 'Version packages');

    const output = run(changeset, ['tag']);
    const tags = git('tag', '--list').split('\n').filter(Boolean);
    for (const name of APPS) {
      const tag = `${name}@${bumpMinor(before[name] as string)}`;
      expect(tags).toContain(tag);
      expect(output).toContain(tag);
    }

    expect(releasedApps(tagsAt(work, 'HEAD'), listApps(work), 'ghcr.io/Acme-Corp')).toEqual(
      APPS.map((name) => {
        const app = name.replace('@erp/', '');
        return {
          app,
          package: name,
          version: bumpMinor(before[name] as string),
          image: `ghcr.io/acme-corp/${app}`,
        };
      }),
    );
    // The script the release workflow runs prints the same list.
    const printed = run(join(root, 'node_modules/.bin/tsx'), [
      join(root, 'tooling/release/src/released-apps.ts'),
      '--registry',
      'ghcr.io/Acme-Corp',
    ]);
    expect(JSON.parse(printed)).toEqual(
      releasedApps(tagsAt(work, 'HEAD'), listApps(work), 'ghcr.io/Acme-Corp'),
    );
  });
});
