import { describe, expect, it } from 'vitest';
import { affectedApps, isImageWide, parseTurboLs } from '../src/affected-apps';
import { releasedApps } from '../src/released-apps';

/** The two small scripts the workflows call: which apps a change affects, which a release released. */

const apps = [
  { app: 'landing', package: '@erp/landing', version: '0.2.0' },
  { app: 'portal', package: '@erp/portal', version: '1.4.0' },
  { app: 'worker', package: '@erp/worker', version: '0.3.1' },
];

describe('released-apps', () => {
  it('keeps the apps tagged at their current version, with a lowercase image name', () => {
    const tags = ['@erp/portal@1.4.0', '@erp/worker@0.3.1', '@erp/db@0.0.0', '@erp/sdk@0.2.0', ''];
    expect(releasedApps(tags, apps, 'ghcr.io/Acme-Corp/')).toEqual([
      {
        app: 'portal',
        package: '@erp/portal',
        version: '1.4.0',
        image: 'ghcr.io/acme-corp/portal',
      },
      {
        app: 'worker',
        package: '@erp/worker',
        version: '0.3.1',
        image: 'ghcr.io/acme-corp/worker',
      },
    ]);
  });

  it('ignores a tag of another version of the app, and releases nothing without tags', () => {
    expect(releasedApps(['@erp/landing@0.1.0'], apps, 'ghcr.io/acme')).toEqual([]);
    expect(releasedApps([], apps, 'ghcr.io/acme')).toEqual([]);
  });
});

describe('affected-apps', () => {
  it('keeps the apps turbo selects', () => {
    expect(
      affectedApps({
        apps,
        changedFiles: ['packages/db/src/x.ts'],
        turboPaths: ['packages/db', 'apps/worker', 'apps/portal/'],
      }),
    ).toEqual(['portal', 'worker']);
    expect(
      affectedApps({ apps, changedFiles: ['README.md', '.changeset/x.md'], turboPaths: [] }),
    ).toEqual([]);
  });

  it('takes every app when a file every image is built from changed, or the base is unknown', () => {
    for (const file of [
      'Dockerfile',
      '.dockerignore',
      'package.json',
      'pnpm-workspace.yaml',
      'turbo.json',
      'deploy/image/healthcheck.mjs',
    ])
      expect(affectedApps({ apps, changedFiles: [file], turboPaths: [] }), file).toEqual([
        'landing',
        'portal',
        'worker',
      ]);
    expect(affectedApps({ apps, changedFiles: undefined, turboPaths: [] })).toEqual([
      'landing',
      'portal',
      'worker',
    ]);
    for (const file of [
      'apps/portal/package.json',
      'pnpm-lock.yaml',
      'deploy/compose.yaml',
      'docs/Dockerfile.md',
    ])
      expect(isImageWide(file), file).toBe(false);
  });

  it('reads turbo ls --output=json, a banner before it or not', () => {
    const json = JSON.stringify({
      packageManager: 'pnpm9',
      packages: {
        count: 2,
        items: [
          { name: '@erp/db', path: 'packages/db' },
          { name: '@erp/portal', path: 'apps/portal' },
        ],
      },
    });
    expect(parseTurboLs(`• turbo 2.11.11\n${json}`)).toEqual(['packages/db', 'apps/portal']);
    expect(parseTurboLs(JSON.stringify({ packages: { count: 0, items: [] } }))).toEqual([]);
  });
});
