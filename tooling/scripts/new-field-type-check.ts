/**
 * Which files must change when the contract gains a field type? Adds a throw-away type
 * (`percentage`, a number field with no row anywhere) to the contract's `FieldType` in a
 * separate git worktree of a revision, typechecks the workspaces that read field types and
 * prints the files that no longer compile: the places a new type is caught if forgotten. Then
 * lists, as a heuristic, the files that still check field types by name and compile silently.
 * The working tree is never touched; the worktree is removed at the end.
 *
 *   pnpm tsx tooling/scripts/new-field-type-check.ts [revision]   (default HEAD)
 *
 * Not a test: it installs dependencies and runs tsc several times (about a minute or two).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NEW_TYPE = 'percentage';
const FIELDS_FILE = 'packages/contract/src/registry/fields.ts';
// Every project whose sources read the contract's field types (the console's codegen has its own).
const PROJECTS: { dir: string; tsconfig: string }[] = [
  { dir: 'packages/contract', tsconfig: 'tsconfig.json' },
  { dir: 'packages/db', tsconfig: 'tsconfig.json' },
  { dir: 'apps/portal', tsconfig: 'tsconfig.json' },
  { dir: 'apps/console', tsconfig: 'tsconfig.json' },
  { dir: 'apps/console', tsconfig: 'tsconfig.node.json' },
  { dir: 'packages/sdk', tsconfig: 'tsconfig.json' },
];
const FIELD_TYPES = [
  'text',
  'email',
  'enum',
  'integer',
  'money',
  'decimal',
  'boolean',
  'date',
  'timestamp',
  'uuid',
  'reference',
  'lines',
  'json',
];

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const root = run('git', ['rev-parse', '--show-toplevel'], process.cwd()).trim();
const revision = process.argv[2] ?? 'HEAD';
const commit = run('git', ['rev-parse', '--short', revision], root).trim();
const tree = mkdtempSync(path.join(tmpdir(), 'ft-check-'));

/** `file → error lines` of one tsc run, files relative to the worktree. */
function typecheck(project: { dir: string; tsconfig: string }): Map<string, string[]> {
  const cwd = path.join(tree, project.dir);
  const tsc = path.join(cwd, 'node_modules/.bin/tsc');
  const out = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', project.tsconfig], {
    cwd,
    encoding: 'utf8',
  });
  const errors = new Map<string, string[]>();
  for (const line of `${out.stdout}${out.stderr}`.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (!match) continue;
    const file = path.relative(tree, path.resolve(cwd, match[1]!));
    errors.set(file, [...(errors.get(file) ?? []), match[2]!]);
  }
  return errors;
}

/** Adds the type to the union and to the number fields' interface; fails if the text moved. */
function addThrowAwayType(): void {
  const file = path.join(tree, FIELDS_FILE);
  const before = readFileSync(file, 'utf8');
  const after = before
    .replace(/export type FieldType =\n/, `$&  | '${NEW_TYPE}'\n`)
    .replace(
      /type: 'integer' \| 'money' \| 'decimal';/,
      `type: 'integer' | 'money' | 'decimal' | '${NEW_TYPE}';`,
    );
  if (after.split(`'${NEW_TYPE}'`).length !== 3)
    throw new Error(`${FIELDS_FILE}: FieldType or NumberField not found where expected`);
  writeFileSync(file, after);
}

/** Files (tests aside) that compare a field's type with a name or switch over several. */
function silentCandidates(): string[] {
  const names = FIELD_TYPES.join('|');
  const grep = spawnSync(
    'git',
    [
      'grep',
      '-n',
      '-E',
      `type [!=]== '(${names})'|case '(${names})':`,
      '--',
      '*.ts',
      '*.tsx',
      ':!*.test.ts',
      ':!*.test.tsx',
      ':!**/test/**',
      ':!e2e/**',
      ':!bench/**',
    ],
    { cwd: tree, encoding: 'utf8' },
  );
  const hits = new Map<string, Set<string>>();
  for (const line of grep.stdout.split('\n')) {
    const match = /^([^:]+):\d+:(.*)$/.exec(line);
    if (!match) continue;
    const file = match[1]!;
    const kinds = hits.get(file) ?? new Set();
    for (const m of match[2]!.matchAll(new RegExp(`'(${names})'`, 'g'))) kinds.add(m[1]!);
    hits.set(file, kinds);
  }
  // A lone `case 'json':` may be about something else; a type check names `.type`.
  return [...hits.entries()]
    .filter(([file, kinds]) => {
      const text = readFileSync(path.join(tree, file), 'utf8');
      return kinds.size >= 2 || /type [!=]== '/.test(text);
    })
    .map(([file, kinds]) => `${file} (${[...kinds].join(', ')})`)
    .sort();
}

try {
  run('git', ['worktree', 'add', '--detach', tree, commit], root);
  console.log(`worktree of ${commit} at ${tree}; installing (offline)…`);
  run('pnpm', ['install', '--offline', '--frozen-lockfile', '--reporter=silent'], tree);

  // What fails already at this revision is not the new type's doing.
  const baseline = new Map<string, Set<string>>();
  for (const project of PROJECTS)
    for (const [file, lines] of typecheck(project))
      baseline.set(file, new Set([...(baseline.get(file) ?? []), ...lines]));

  addThrowAwayType();
  const failing = new Map<string, Set<string>>();
  for (const project of PROJECTS)
    for (const [file, lines] of typecheck(project)) {
      const fresh = lines.filter((l) => !baseline.get(file)?.has(l));
      if (fresh.length) failing.set(file, new Set([...(failing.get(file) ?? []), ...fresh]));
    }

  const broken = [...failing.keys()].sort();
  console.log(
    `\n${commit}: '${NEW_TYPE}' added to FieldType (${FIELDS_FILE}, also touched); ` +
      `${broken.length} more file(s) fail to compile until they handle it:`,
  );
  for (const file of broken) {
    const first = [...failing.get(file)!][0]!;
    console.log(`  ${file}  (${failing.get(file)!.size} error(s); ${first.slice(0, 110)})`);
  }
  const silent = silentCandidates().filter((f) => !failing.has(f.split(' ')[0]!));
  console.log(
    `\ncompile silently but name field types in a check (heuristic, review by hand): ${silent.length}`,
  );
  for (const line of silent) console.log(`  ${line}`);
  if (baseline.size)
    console.log(`\n(already failing at ${commit}, ignored: ${[...baseline.keys()].join(', ')})`);
} finally {
  spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: root });
  rmSync(tree, { recursive: true, force: true });
}
