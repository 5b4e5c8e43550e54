// biome-ignore-all lint/suspicious/noTemplateCurlyInString: GitHub Actions expressions (${{ … }}), not templates
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  checkActionText,
  checkWorkflowText,
  commandsOf,
  loadRepo,
  type Repo,
  workflowFiles,
} from './workflows-check';

const root = resolve(import.meta.dirname, '../../..');
const repo = loadRepo(root);
const files = workflowFiles(root);

type Job = {
  'runs-on'?: unknown;
  permissions?: Record<string, string>;
  services?: Record<string, { image?: string }>;
  env?: Record<string, string>;
  needs?: string | string[];
  if?: string;
  strategy?: { matrix?: Record<string, unknown> };
  steps: {
    uses?: string;
    run?: string;
    with?: Record<string, unknown>;
    id?: string;
    if?: string;
  }[];
};
type Workflow = {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
};

function workflow(name: string): Workflow {
  return parse(readFileSync(join(root, '.github/workflows', name), 'utf8')) as Workflow;
}

/** Every `run:` of a job, as one text. */
function runs(job: Job): string {
  return job.steps.map((step) => step.run ?? '').join('\n');
}

describe('the workflow files', () => {
  it('include ci.yml and release.yml', () => {
    expect(files).toEqual(
      expect.arrayContaining(['.github/workflows/ci.yml', '.github/workflows/release.yml']),
    );
  });

  it.each(files)(
    '%s: YAML with on/jobs, jobs with runs-on and steps, pinned actions, existing scripts, tasks and files',
    (file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const doc = parse(text) as Workflow;
      expect(doc.on).toBeTruthy();
      expect(Object.keys(doc.jobs).length).toBeGreaterThan(0);
      for (const job of Object.values(doc.jobs)) {
        expect(job['runs-on']).toBeTruthy();
        expect(job.steps.length).toBeGreaterThan(0);
      }
      expect(checkWorkflowText(file, text, repo)).toEqual([]);
    },
  );

  it('would fail ci.yml calling a made-up script, task, package or file', () => {
    const file = '.github/workflows/ci.yml';
    const text = readFileSync(join(root, file), 'utf8');
    for (const [from, to, problem] of [
      [
        'run: pnpm lint',
        'run: pnpm lint-made-up',
        'no script "lint-made-up" in the root package.json',
      ],
      [
        'run: pnpm typecheck',
        'run: pnpm turbo run typecheck-made-up',
        'turbo task "typecheck-made-up" is not in turbo.json',
      ],
      [
        'run: pnpm codegen',
        'run: pnpm --filter @erp/portal codegen',
        'no script "codegen" in @erp/portal',
      ],
      [
        'src/affected-apps.ts',
        'src/made-up.ts',
        'file "tooling/release/src/made-up.ts" does not exist',
      ],
      ['file: Dockerfile', 'file: Dockerfile.made-up', 'file "Dockerfile.made-up" does not exist'],
    ] as const) {
      expect(text).toContain(from);
      const problems = checkWorkflowText(file, text.replace(from, to), repo);
      expect(problems.join('\n'), to).toContain(problem);
    }
  });

  it('the local setup action takes pnpm from packageManager and installs the frozen lockfile', () => {
    const file = '.github/actions/setup/action.yml';
    const text = readFileSync(join(root, file), 'utf8');
    expect(checkActionText(file, text, repo)).toEqual([]);
    const steps = (parse(text) as { runs: { steps: Job['steps'] } }).runs.steps;
    const pnpm = steps.find((s) => s.uses?.startsWith('pnpm/action-setup@'));
    expect(pnpm).toBeDefined();
    // No version input: the action reads packageManager (the checker also accepts the same version).
    expect(pnpm?.with?.version ?? repo.packageManager?.replace('pnpm@', '')).toBe(
      repo.packageManager?.replace('pnpm@', ''),
    );
    const node = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(node?.with).toMatchObject({ 'node-version-file': '.node-version', cache: 'pnpm' });
    expect(node?.with?.['node-version']).toBeUndefined();
    const renamed = text.replace('node-version-file: .node-version', 'node-version-file: .nvmrc-x');
    expect(checkActionText(file, renamed, repo)).toEqual([
      `${file} step 2: node-version-file ".nvmrc-x" does not exist`,
    ]);
    expect(steps.map((s) => s.run ?? '').join('\n')).toContain('pnpm install --frozen-lockfile');
  });
});

describe('ci.yml', () => {
  const ci = workflow('ci.yml');

  it('runs on pull requests and pushes to main, cancels superseded runs, only reads the repository', () => {
    expect(ci.on).toHaveProperty('pull_request');
    expect((ci.on.push as { branches: string[] }).branches).toEqual(['main']);
    expect(ci.concurrency?.['cancel-in-progress']).toBe(true);
    expect(ci.concurrency?.group).toContain('github.event.pull_request.number || github.ref');
    expect(ci.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(ci.jobs)) expect(job.permissions).toBeUndefined();
  });

  it('lints, typechecks, tests against PostgreSQL 17 and checks codegen is up to date', () => {
    expect(runs(ci.jobs.lint as Job)).toContain('pnpm lint');
    expect(runs(ci.jobs.typecheck as Job)).toContain('pnpm typecheck');
    const test = ci.jobs.test as Job;
    expect(runs(test)).toMatch(/^pnpm test\b/m);
    expect(test.services?.postgres?.image).toBe('postgres:17');
    expect(test.env?.DATABASE_URL).toMatch(/^postgres:\/\/postgres:postgres@localhost:5432\//);
    const codegen = runs(ci.jobs.codegen as Job);
    expect(codegen.indexOf('pnpm codegen')).toBeGreaterThanOrEqual(0);
    expect(codegen.indexOf('git diff --exit-code')).toBeGreaterThan(
      codegen.indexOf('pnpm codegen'),
    );
  });

  it('builds the image of every affected app, without pushing', () => {
    expect(runs(ci.jobs.affected as Job)).toContain('tooling/release/src/affected-apps.ts');
    const image = ci.jobs.image as Job;
    expect(image.needs).toBe('affected');
    expect(image.strategy?.matrix?.app).toBe('${{ fromJSON(needs.affected.outputs.apps) }}');
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with).toMatchObject({
      file: 'Dockerfile',
      push: false,
      'build-args': 'APP=${{ matrix.app }}',
    });
  });
});

describe('release.yml', () => {
  const release = workflow('release.yml');

  it('runs on pushes to main, one at a time, never cancelled', () => {
    expect((release.on.push as { branches: string[] }).branches).toEqual(['main']);
    expect(Object.keys(release.on)).toEqual(['push']);
    expect(release.concurrency?.['cancel-in-progress']).toBe(false);
    expect(release.permissions).toEqual({ contents: 'read' });
  });

  it('lets changesets open the version PR, then tags the versions and lists the released apps', () => {
    const version = release.jobs.version as Job;
    expect(version.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    const action = version.steps.find((s) => s.uses?.startsWith('changesets/action@'));
    expect(action?.with).toMatchObject({
      version: 'pnpm version-packages',
      publish: 'pnpm changeset tag',
    });
    const released = version.steps.find((s) => s.id === 'released');
    expect(released?.if).toBe("steps.changesets.outputs.hasChangesets == 'false'");
    expect(released?.run).toContain(
      'tooling/release/src/released-apps.ts --registry "ghcr.io/$GITHUB_REPOSITORY_OWNER"',
    );
  });

  it('pushes ghcr.io/<owner>/<app>:<version> for each released app, never only latest', () => {
    const image = release.jobs.image as Job;
    expect(image.permissions).toEqual({ contents: 'read', packages: 'write' });
    expect(image.strategy?.matrix?.include).toBe('${{ fromJSON(needs.version.outputs.apps) }}');
    const login = image.steps.find((s) => s.uses?.startsWith('docker/login-action@'));
    expect(login?.with).toMatchObject({
      registry: 'ghcr.io',
      password: '${{ secrets.GITHUB_TOKEN }}',
    });
    const build = image.steps.find((s) => s.uses?.startsWith('docker/build-push-action@'));
    expect(build?.with).toMatchObject({
      file: 'Dockerfile',
      push: true,
      'build-args': 'APP=${{ matrix.app }}',
    });
    const tags = String(build?.with?.tags)
      .split(/[\n,]+/)
      .map((tag) => tag.trim())
      .filter(Boolean);
    expect(tags).toEqual(['${{ matrix.image }}:${{ matrix.version }}']);
    expect(tags.some((tag) => tag.endsWith(':latest'))).toBe(false);
  });
});

describe('the checker itself (in-memory workflows)', () => {
  const fake: Repo = {
    root: '/nowhere',
    packageManager: 'pnpm@10.34.9',
    rootScripts: { test: 'turbo run test', lint: 'biome check .', broken: 'turbo run nope' },
    packages: [
      { name: '@erp/db', dir: 'packages/db', scripts: { migrate: 'tsx src/migrate-cli.ts' } },
    ],
    turboTasks: new Set(['test', 'build']),
    exists: (path) =>
      [
        'Dockerfile',
        '.ci',
        '.ci/run',
        'tooling',
        'tooling/release/src/x.ts',
        'node_modules/.bin/tsx',
        'node_modules/.bin/turbo',
      ].includes(path),
  };
  const withRun = (run: string, uses = 'actions/checkout@v5') =>
    `on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - uses: ${uses}\n      - run: ${JSON.stringify(run)}\n`;
  const problems = (run: string, uses?: string) =>
    checkWorkflowText('w.yml', withRun(run, uses), fake);

  it('passes existing scripts, tasks, packages, binaries and files', () => {
    expect(
      problems(
        'pnpm test --continue && pnpm run lint\npnpm --filter @erp/db migrate\npnpm turbo run build --filter=...[origin/main]\npnpm exec tsx tooling/release/src/x.ts\n.ci/run\ndocker build -f Dockerfile --build-arg APP=portal .',
      ),
    ).toEqual([]);
  });

  it('fails a made-up root script, with or without run', () => {
    expect(problems('pnpm made-up-script')).toEqual([
      'w.yml job a step 2: no script "made-up-script" in the root package.json',
    ]);
    expect(problems('pnpm run made-up-script')).toHaveLength(1);
    expect(problems('x=$(pnpm -s run made-up-script)')).toHaveLength(1);
  });

  it('fails a made-up package script or package', () => {
    expect(problems('pnpm --filter @erp/db seed')).toEqual([
      'w.yml job a step 2: no script "seed" in @erp/db',
    ]);
    expect(problems('pnpm --filter @erp/nope migrate')).toEqual([
      'w.yml job a step 2: --filter @erp/nope: no workspace package is named so',
    ]);
  });

  it('fails a turbo task turbo.json does not define, also behind a root script', () => {
    expect(problems('pnpm turbo run deploy')).toEqual([
      'w.yml job a step 2: turbo task "deploy" is not in turbo.json',
    ]);
    expect(problems('pnpm exec turbo typecheck')).toHaveLength(1);
    expect(problems('pnpm broken')).toEqual([
      'w.yml job a step 2 → "broken": turbo task "nope" is not in turbo.json',
    ]);
  });

  it('fails a missing file or binary', () => {
    expect(problems('pnpm exec tsx tooling/release/src/missing.ts')).toEqual([
      'w.yml job a step 2: file "tooling/release/src/missing.ts" does not exist',
    ]);
    expect(problems('.ci/nope')).toHaveLength(1);
    expect(problems('pnpm exec nope-bin')).toHaveLength(1);
    // Not paths: refs, expressions, URLs.
    expect(
      problems('git diff origin/main...HEAD && echo "${{ github.sha }}" https://x.test/a.ts'),
    ).toEqual([]);
  });

  it('fails an action pinned to a branch or not pinned', () => {
    expect(problems('true', 'actions/checkout@main')).toEqual([
      'w.yml job a step 1: actions/checkout@main is pinned to "main", not to a version tag or a commit SHA',
    ]);
    expect(problems('true', 'actions/checkout')).toHaveLength(1);
    expect(problems('true', `actions/checkout@${'a'.repeat(40)}`)).toEqual([]);
    expect(problems('true', 'actions/checkout@v5.0.1')).toEqual([]);
  });

  it('fails a pnpm version other than packageManager', () => {
    const text =
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: pnpm/action-setup@v4\n        with:\n          version: 9\n';
    expect(checkWorkflowText('w.yml', text, fake)).toHaveLength(1);
  });

  it('fails a workflow without on, a job without runs-on or steps, and text that is not YAML', () => {
    expect(checkWorkflowText('w.yml', 'jobs:\n  a:\n    steps: [{run: "true"}]\n', fake)).toEqual([
      'w.yml: no "on"',
      'w.yml job a: no runs-on',
    ]);
    expect(checkWorkflowText('w.yml', 'on: push\njobs:\n  a:\n    runs-on: x\n', fake)).toEqual([
      'w.yml job a: no steps',
    ]);
    expect(checkWorkflowText('w.yml', 'on: [push\n', fake)[0]).toMatch(/^w\.yml: not YAML/);
  });

  it('splits shell into commands', () => {
    expect(
      commandsOf('A=1 pnpm lint && echo "x $(git rev-parse HEAD)" | tee o # note\nfoo \\\n  bar'),
    ).toEqual([
      ['A=1', 'pnpm', 'lint'],
      ['git', 'rev-parse', 'HEAD'],
      ['echo', 'x $()'],
      ['tee', 'o'],
      ['foo', 'bar'],
    ]);
  });
});
