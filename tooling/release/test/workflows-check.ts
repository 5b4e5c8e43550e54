import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';

/**
 * Static checks of GitHub Actions workflows (and local composite actions) against the
 * repository: the shape GitHub requires, actions pinned to a tag or a commit, and every
 * script, turbo task, workspace package and file a `run:` names exists. Each check returns
 * problems as sentences; an empty list is a pass.
 */

export interface WorkspacePackage {
  name: string;
  /** Relative to the root, `/`-separated: `apps/portal`. */
  dir: string;
  scripts: Record<string, string>;
}

export interface Repo {
  root: string;
  packageManager: string | undefined;
  rootScripts: Record<string, string>;
  packages: WorkspacePackage[];
  turboTasks: Set<string>;
  /** Whether `path` (relative to the root) exists. */
  exists(path: string): boolean;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Directories pnpm-workspace.yaml's `packages` globs name (`dir/*` and plain directories). */
function workspaceDirs(root: string): string[] {
  const workspace = parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages?: string[];
  };
  const dirs: string[] = [];
  for (const glob of workspace.packages ?? []) {
    if (glob.startsWith('!')) continue;
    if (glob.endsWith('/*')) {
      const parent = glob.slice(0, -2);
      if (!existsSync(join(root, parent))) continue;
      for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(`${parent}/${entry.name}`);
      }
    } else if (!glob.includes('*')) {
      dirs.push(glob.replace(/\/+$/, ''));
    } else {
      throw new Error(`workspace glob not understood by this check: ${glob}`);
    }
  }
  return dirs.filter((dir) => existsSync(join(root, dir, 'package.json')));
}

export function loadRepo(root: string): Repo {
  const manifest = readJson<{ packageManager?: string; scripts?: Record<string, string> }>(
    join(root, 'package.json'),
  );
  const turbo = readJson<{ tasks?: Record<string, unknown> }>(join(root, 'turbo.json'));
  return {
    root,
    packageManager: manifest.packageManager,
    rootScripts: manifest.scripts ?? {},
    packages: workspaceDirs(root).map((dir) => {
      const pkg = readJson<{ name: string; scripts?: Record<string, string> }>(
        join(root, dir, 'package.json'),
      );
      return { name: pkg.name, dir, scripts: pkg.scripts ?? {} };
    }),
    turboTasks: new Set(Object.keys(turbo.tasks ?? {})),
    exists: (path) => existsSync(join(root, path)),
  };
}

// ---------------------------------------------------------------------------------------------
// Shell: the commands a `run:` script runs, as token lists.

/**
 * Splits a shell script into simple commands (on newlines, `;`, `&&`, `||`, `|`, and inside
 * `$( … )` / backticks), each as its words with quotes removed. Comments are dropped.
 * Good enough for workflow steps; not a shell parser.
 */
export function commandsOf(script: string): string[][] {
  // A GitHub expression is one word whatever its spaces: `${{ matrix.app }}` → `${{expr}}`.
  const text = script
    .replace(/\\\r?\n/g, ' ')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template
    .replace(/\$\{\{[\s\S]*?\}\}/g, '${{expr}}');
  const segments: string[][] = [];
  // Each open `$(` keeps the words of the command it interrupted.
  const stack: { words: string[]; word: string; quote: string }[] = [];
  let words: string[] = [];
  let word = '';
  let quote = ''; // '', "'", '"'
  let quoted = false; // the current word had quotes (an empty "" is still a word)
  const endWord = () => {
    if (word !== '' || quoted) words.push(word);
    word = '';
    quoted = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (quote === "'") {
      if (c === "'") quote = '';
      else word += c;
      continue;
    }
    if (c === '$' && next === '(' && text[i + 2] !== '(') {
      stack.push({ words, word, quote });
      words = [];
      word = '';
      quote = '';
      i++;
      continue;
    }
    if (c === ')' && quote === '' && stack.length > 0) {
      endCommand();
      const outer = stack.pop() as { words: string[]; word: string; quote: string };
      words = outer.words;
      word = `${outer.word}$()`; // the substitution's value: unknown, never a path
      quote = outer.quote;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && next !== undefined) {
        word += next;
        i++;
      } else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      quoted = true;
      continue;
    }
    if (c === '#' && word === '' && !quoted) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '\n' || c === ';' || c === '`' || c === '(' || c === ')') {
      endCommand();
      continue;
    }
    if (c === '&' || c === '|') {
      if (next === c) i++;
      endCommand();
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      continue;
    }
    word += c;
  }
  endCommand();
  return segments;
}

const SHELL_PREFIXES = new Set([
  '!',
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
  'time',
  'env',
]);

/** The command's words without leading shell keywords and `VAR=value` assignments. */
export function stripPrefixes(words: readonly string[]): string[] {
  let i = 0;
  while (
    i < words.length &&
    (SHELL_PREFIXES.has(words[i] as string) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string))
  )
    i++;
  return words.slice(i);
}

// ---------------------------------------------------------------------------------------------
// pnpm and turbo invocations.

/** pnpm's own commands, which are not scripts (`pnpm test`/`start` run the script of that name). */
const PNPM_BUILTINS = new Set([
  'add',
  'audit',
  'bin',
  'config',
  'create',
  'dedupe',
  'deploy',
  'dlx',
  'env',
  'fetch',
  'i',
  'import',
  'install',
  'install-test',
  'licenses',
  'link',
  'list',
  'ls',
  'outdated',
  'pack',
  'patch',
  'patch-commit',
  'prune',
  'publish',
  'rebuild',
  'remove',
  'root',
  'setup',
  'store',
  'unlink',
  'update',
  'up',
  'why',
  'help',
]);
/** pnpm options that take a value as the next word. */
const PNPM_VALUE_OPTIONS = new Set([
  '--filter',
  '-F',
  '--dir',
  '-C',
  '--reporter',
  '--workspace-concurrency',
  '--loglevel',
]);
/** turbo's commands other than `run`; any other first word is a task (`turbo build`). */
const TURBO_COMMANDS = new Set([
  'bin',
  'boundaries',
  'completion',
  'daemon',
  'devtools',
  'docs',
  'gen',
  'generate',
  'info',
  'link',
  'login',
  'logout',
  'ls',
  'prune',
  'query',
  'scan',
  'telemetry',
  'unlink',
  'watch',
]);

interface Target {
  /** What the problem messages call it. */
  label: string;
  packages: WorkspacePackage[];
  /** The root package (no --filter): root scripts. */
  root: boolean;
  /** A selector that may match several packages (`...[origin/main]`, globs): a script must exist in one. */
  loose: boolean;
}

function resolveFilter(selector: string, repo: Repo): Target | string {
  const bare = selector.replace(/^!/, '');
  if (/[[\]*{}.]{2,}|\*|\[|\^/.test(bare) || bare.startsWith('...') || bare.endsWith('...')) {
    return { label: `--filter ${selector}`, packages: repo.packages, root: false, loose: true };
  }
  const byPath = bare.startsWith('./')
    ? posix.normalize(bare.slice(2)).replace(/\/+$/, '')
    : undefined;
  const pkg = repo.packages.find(
    (p) => p.name === bare || (byPath !== undefined && p.dir === byPath),
  );
  if (!pkg) return `--filter ${selector}: no workspace package is named so`;
  return { label: pkg.name, packages: [pkg], root: false, loose: false };
}

function binExists(repo: Repo, target: Target, bin: string): boolean {
  const dirs = target.root ? ['.'] : [...target.packages.map((p) => p.dir), '.'];
  return dirs.some((dir) => repo.exists(posix.join(dir, 'node_modules/.bin', bin)));
}

function checkTurbo(args: readonly string[], repo: Repo, where: string): string[] {
  const words = args.filter((a) => !a.startsWith('-'));
  const first = words[0];
  if (first === undefined) return [];
  if (first === 'prune') {
    return words
      .slice(1)
      .filter((name) => !repo.packages.some((p) => p.name === name))
      .map((name) => `${where}: turbo prune ${name}: no workspace package is named so`);
  }
  if (TURBO_COMMANDS.has(first)) return [];
  // `turbo run a b --filter=x` or `turbo a b`: the tasks are the words before the first option.
  const rest = first === 'run' ? args.slice(1) : args;
  const tasks: string[] = [];
  for (const arg of rest) {
    if (arg.startsWith('-')) break;
    tasks.push(arg);
  }
  const problems: string[] = [];
  for (const task of tasks) {
    if (task.includes('${{'))
      problems.push(`${where}: turbo task "${task}" is an expression: not checkable`);
    else if (!repo.turboTasks.has(task) && !repo.turboTasks.has(task.split('#').pop() as string))
      problems.push(`${where}: turbo task "${task}" is not in turbo.json`);
  }
  return problems;
}

function checkScript(
  name: string,
  target: Target,
  repo: Repo,
  where: string,
  depth: number,
  forwarded: readonly string[],
): string[] {
  if (name.includes('${{')) return [`${where}: script "${name}" is an expression: not checkable`];
  if (target.root) {
    const body = repo.rootScripts[name];
    // pnpm appends the words after the script's name to its text: `pnpm bench run list` with
    // `"bench": "pnpm --filter @erp/bench run"` runs `pnpm --filter @erp/bench run run list`.
    const text =
      body !== undefined && forwarded.length > 0
        ? `${body} ${forwarded.map(shellWord).join(' ')}`
        : body;
    if (text !== undefined)
      return depth < 3 ? checkScriptText(text, repo, `${where} → "${name}"`, depth + 1) : [];
  } else {
    const having = target.packages.filter((p) => p.scripts[name] !== undefined);
    if (having.length > 0) return [];
  }
  return [
    `${where}: no script "${name}" in ${target.root ? 'the root package.json' : target.label}`,
  ];
}

/** Problems of one command (its words), run from the repository root. */
export function checkCommand(
  words: readonly string[],
  repo: Repo,
  where: string,
  depth = 0,
): string[] {
  const command = stripPrefixes(words);
  const problems = command.flatMap((word) => checkPath(word, repo, where));
  const [program, ...args] = command;
  if (program === 'turbo') return [...problems, ...checkTurbo(args, repo, where)];
  // ./run bootstraps the toolchain, then runs pnpm with its arguments.
  if (program === './run')
    return [...problems, ...checkCommand(['pnpm', ...args], repo, where, depth)];
  if (program !== 'pnpm') return problems;

  let target: Target = { label: 'the root', packages: [], root: true, loose: false };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) break;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    let value = inline;
    if (value === undefined && PNPM_VALUE_OPTIONS.has(flag)) value = args[++i];
    if ((flag === '--filter' || flag === '-F') && value !== undefined) {
      const resolved = resolveFilter(value, repo);
      if (typeof resolved === 'string') return [...problems, `${where}: ${resolved}`];
      target = target.root
        ? resolved
        : { ...resolved, packages: [...target.packages, ...resolved.packages] };
    } else if (flag === '-r' || flag === '--recursive') {
      target = {
        label: 'any workspace package',
        packages: repo.packages,
        root: false,
        loose: true,
      };
    } else if (flag === '--version' || flag === '-v' || flag === '--help' || flag === '-h') {
      return problems;
    }
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return problems;
  if (PNPM_BUILTINS.has(sub)) {
    // `pnpm --filter @erp/bench list` is pnpm's dependency list, not the script `list`.
    const shadowed = target.root
      ? repo.rootScripts[sub] !== undefined
      : !target.loose && target.packages.some((p) => p.scripts[sub] !== undefined);
    return shadowed
      ? [
          ...problems,
          `${where}: "${sub}" is pnpm's own command, not the script of ${target.label}: write \`run ${sub}\``,
        ]
      : problems;
  }
  if (sub === 'run' || sub === 'run-script') {
    const at = rest.findIndex((a) => !a.startsWith('-'));
    const name = rest[at];
    return name === undefined
      ? problems
      : [...problems, ...checkScript(name, target, repo, where, depth, rest.slice(at + 1))];
  }
  if (sub === 'exec' || sub === 'dlx') {
    const bin = rest.find((a) => !a.startsWith('-'));
    if (bin === undefined || sub === 'dlx') return problems;
    if (!binExists(repo, target, bin))
      return [...problems, `${where}: pnpm exec ${bin}: no such binary installed`];
    return bin === 'turbo'
      ? [...problems, ...checkTurbo(rest.slice(rest.indexOf(bin) + 1), repo, where)]
      : problems;
  }
  const script = sub === 't' || sub === 'tst' ? 'test' : sub;
  // `pnpm <name>`: a script of that name, else (pnpm falls back to exec) an installed binary.
  const hasScript = target.root
    ? repo.rootScripts[script] !== undefined
    : target.packages.some((p) => p.scripts[script] !== undefined);
  if (hasScript || script === 'test' || script === 'start' || !binExists(repo, target, script))
    return [...problems, ...checkScript(script, target, repo, where, depth, rest)];
  return script === 'turbo' ? [...problems, ...checkTurbo(rest, repo, where)] : problems;
}

/** A word as the shell would need it written to read it back as that one word. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Problems of a whole `run:` script. */
export function checkScriptText(script: string, repo: Repo, where: string, depth = 0): string[] {
  return commandsOf(script).flatMap((words) => checkCommand(words, repo, where, depth));
}

/**
 * A word naming a repository file must name one that exists. A word is taken for a path when
 * it has no expression or URL in it and either starts with `./`, or its first segment is a
 * top-level entry of the repository (`tooling/…`, `.ci/run`), or it is a Dockerfile, or it
 * has a `/` and ends with a file extension (`scripts/x.ts`). `origin/main` is none of these.
 */
export function checkPath(word: string, repo: Repo, where: string): string[] {
  if (!isPathLike(word, repo)) return [];
  const path = posix.normalize(word.replace(/^\.\//, '')).replace(/\/+$/, '');
  return repo.exists(path) ? [] : [`${where}: file "${word}" does not exist`];
}

function isPathLike(word: string, repo: Repo): boolean {
  if (word === '' || /[$:{}*?=<>@,]/.test(word) || word.startsWith('/') || word.startsWith('-'))
    return false;
  if (!/^[A-Za-z0-9_.\-/]+$/.test(word)) return false;
  if (/^(\S+\.)?Dockerfile(\.\S+)?$/.test(word)) return true;
  if (word.startsWith('./')) return word.length > 2;
  if (!word.includes('/')) return false;
  const first = word.split('/')[0] as string;
  if (first === '.' || first === '..') return false;
  if (first !== '' && first !== word && repo.exists(first)) return true;
  return /\/[^/]*\.(ts|js|mjs|cjs|sh|json|ya?ml|sql)$/.test(word);
}

// ---------------------------------------------------------------------------------------------
// Workflows and actions.

type Step = Record<string, unknown> & {
  uses?: unknown;
  run?: unknown;
  with?: Record<string, unknown>;
};

const PINNED_REF = /^(v?\d+(\.\d+){0,2}|[0-9a-f]{40})$/;

function checkUses(uses: unknown, repo: Repo, where: string, seen: Set<string>): string[] {
  if (typeof uses !== 'string') return [`${where}: uses is not a string`];
  if (uses.startsWith('./')) {
    const dir = posix.normalize(uses.slice(2)).replace(/\/+$/, '');
    const file = ['action.yml', 'action.yaml']
      .map((f) => `${dir}/${f}`)
      .find((f) => repo.exists(f));
    if (!file) return [`${where}: local action ${uses} has no action.yml`];
    if (seen.has(file)) return [];
    seen.add(file);
    return checkActionText(file, readFileSync(join(repo.root, file), 'utf8'), repo, seen);
  }
  if (uses.startsWith('docker://')) {
    return /[:@][^/]+$/.test(uses) ? [] : [`${where}: ${uses} names no image tag or digest`];
  }
  const at = uses.lastIndexOf('@');
  if (at < 0) return [`${where}: ${uses} is not pinned (no @version)`];
  const ref = uses.slice(at + 1);
  return PINNED_REF.test(ref)
    ? []
    : [`${where}: ${uses} is pinned to "${ref}", not to a version tag or a commit SHA`];
}

function checkSteps(steps: unknown, repo: Repo, where: string, seen: Set<string>): string[] {
  if (!Array.isArray(steps) || steps.length === 0) return [`${where}: no steps`];
  return (steps as Step[]).flatMap((step, index) => {
    const at = `${where} step ${index + 1}${typeof step.name === 'string' ? ` (${step.name})` : ''}`;
    const problems: string[] = [];
    if (step.uses === undefined && step.run === undefined)
      problems.push(`${at}: neither uses nor run`);
    if (step.uses !== undefined) problems.push(...checkUses(step.uses, repo, at, seen));
    if (typeof step.run === 'string') problems.push(...checkScriptText(step.run, repo, at));
    const uses = typeof step.uses === 'string' ? step.uses.split('@')[0] : '';
    const input = step.with ?? {};
    if (uses === 'pnpm/action-setup' && input.version !== undefined) {
      const pinned = repo.packageManager?.replace(/^pnpm@/, '').split('+')[0];
      if (String(input.version) !== pinned)
        problems.push(
          `${at}: pnpm version ${String(input.version)} is not package.json's packageManager (${repo.packageManager})`,
        );
    }
    if (uses === 'actions/setup-node' && typeof input['node-version-file'] === 'string') {
      const file = posix.normalize(input['node-version-file'].replace(/^\.\//, ''));
      if (!repo.exists(file))
        problems.push(`${at}: node-version-file "${input['node-version-file']}" does not exist`);
    }
    if (uses === 'docker/build-push-action') {
      for (const key of ['file', 'context']) {
        const value = input[key];
        if (typeof value === 'string' && !value.includes('${{') && !value.includes('://')) {
          const path = posix.normalize(value.replace(/^\.\//, '')).replace(/\/+$/, '') || '.';
          if (!repo.exists(path)) problems.push(`${at}: ${key} "${value}" does not exist`);
        }
      }
    }
    return problems;
  });
}

/** Problems of a workflow file's text (`file` names it in the messages). */
export function checkWorkflowText(file: string, text: string, repo: Repo): string[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return [`${file}: not YAML: ${(error as Error).message}`];
  }
  if (typeof doc !== 'object' || doc === null) return [`${file}: not a mapping`];
  const workflow = doc as { on?: unknown; jobs?: unknown };
  const problems: string[] = [];
  if (workflow.on === undefined || workflow.on === null) problems.push(`${file}: no "on"`);
  if (
    typeof workflow.jobs !== 'object' ||
    workflow.jobs === null ||
    Object.keys(workflow.jobs).length === 0
  )
    return [...problems, `${file}: no jobs`];
  const seen = new Set<string>();
  for (const [id, job] of Object.entries(
    workflow.jobs as Record<string, Record<string, unknown>>,
  )) {
    const where = `${file} job ${id}`;
    if (typeof job !== 'object' || job === null) {
      problems.push(`${where}: not a mapping`);
      continue;
    }
    if (job['runs-on'] === undefined) problems.push(`${where}: no runs-on`);
    problems.push(...checkSteps(job.steps, repo, where, seen));
  }
  return problems;
}

/** Problems of a local (composite) action's action.yml. */
export function checkActionText(
  file: string,
  text: string,
  repo: Repo,
  seen = new Set<string>(),
): string[] {
  let doc: { runs?: { using?: string; steps?: unknown } };
  try {
    doc = parse(text);
  } catch (error) {
    return [`${file}: not YAML: ${(error as Error).message}`];
  }
  if (doc?.runs?.using !== 'composite') return [];
  return checkSteps(doc.runs.steps, repo, file, seen);
}

/** The workflow files under `.github/workflows` (relative paths). */
export function workflowFiles(root: string): string[] {
  const dir = join(root, '.github/workflows');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => `.github/workflows/${name}`);
}
