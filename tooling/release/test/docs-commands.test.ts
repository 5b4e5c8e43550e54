import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocuments, markdownFiles, pnpmCommandsOf } from './docs-commands';
import { checkCommand, loadRepo, type Repo } from './workflows-check';

/** Every `pnpm …` command a document shows must run as written (issue 12, defect 10). */
const root = path.resolve(import.meta.dirname, '../../..');

describe('the pnpm commands the documents show', () => {
  const files = markdownFiles(root);

  it('are read from every markdown file, the READMEs included', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'bench/README.md',
        'deploy/README.md',
        'packages/sdk/README.md',
        '.changeset/README.md',
        'ARCHITECTURE.md',
      ]),
    );
  });

  it('name scripts, packages, binaries and files that exist, with the arguments pnpm passes on', () => {
    expect(checkDocuments(loadRepo(root), files)).toEqual([]);
  });
});

describe('the check', () => {
  const repo = (bench: string): Repo => ({
    root: '/nowhere',
    packageManager: 'pnpm@10.34.9',
    rootScripts: { bench, dev: 'tsx tooling/dev/src/dev.ts' },
    packages: [
      { name: '@erp/bench', dir: 'bench', scripts: { auth: 'tsx a.ts', list: 'tsx l.ts' } },
    ],
    turboTasks: new Set(),
    exists: (file) => ['tooling', 'tooling/dev/src/dev.ts'].includes(file),
  });
  const problems = (command: string, bench: string) =>
    pnpmCommandsOf(`\`${command}\``).flatMap((words) => checkCommand(words, repo(bench), 'doc'));

  it('follows a root script with the words after its name (the README’s `pnpm bench run list`)', () => {
    const withRun = 'pnpm --filter @erp/bench run';
    expect(problems('pnpm bench run list', withRun)).toEqual([
      'doc → "bench": no script "run" in @erp/bench',
    ]);
    expect(problems('pnpm bench list', withRun)).toEqual([]);
    expect(problems('pnpm bench auth', withRun)).toEqual([]);
    expect(problems('pnpm bench nope', withRun)).toEqual([
      'doc → "bench": no script "nope" in @erp/bench',
    ]);
  });

  it('refuses a pnpm command standing where a script of that name was meant', () => {
    const withoutRun = 'pnpm --filter @erp/bench';
    expect(problems('pnpm bench list', withoutRun)).toEqual([
      'doc → "bench": "list" is pnpm\'s own command, not the script of @erp/bench: write `run list`',
    ]);
    expect(problems('pnpm bench run list', withoutRun)).toEqual([]);
    expect(problems('pnpm --filter @erp/bench list', withoutRun)).toHaveLength(1);
  });

  it('reads shell fences and inline code, skips other languages, strips variables and comments', () => {
    const markdown = [
      'Run `SEED_ADMIN_PASSWORD=x pnpm dev` or:',
      '```sh',
      'pnpm bench auth   # a comment',
      'PORT=1 pnpm bench list',
      '```',
      '```json',
      '{ "x": "pnpm bench nope" }',
      '```',
      '`npm install --global pnpm@10` is not a pnpm command; `./run dev` is one.',
    ].join('\n');
    expect(pnpmCommandsOf(markdown)).toEqual([
      ['pnpm', 'bench', 'auth'],
      ['PORT=1', 'pnpm', 'bench', 'list'],
      ['SEED_ADMIN_PASSWORD=x', 'pnpm', 'dev'],
      ['./run', 'dev'],
    ]);
  });

  it('checks `./run …` as the pnpm command it runs', () => {
    expect(problems('./run bench list', 'pnpm --filter @erp/bench run')).toEqual([
      'doc: file "./run" does not exist',
    ]);
    expect(problems('./run bench nope', 'pnpm --filter @erp/bench run')).toContain(
      'doc → "bench": no script "nope" in @erp/bench',
    );
  });
});
