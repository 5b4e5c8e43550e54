import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkCommand, commandsOf, type Repo, stripPrefixes } from './workflows-check';

/** Fenced blocks in these languages (or none) hold shell commands. */
const SHELL_FENCES = new Set(['', 'sh', 'bash', 'shell', 'console', 'zsh']);

/** The code a markdown text shows: shell fenced blocks whole, and inline code spans. */
export function codeOf(markdown: string): string[] {
  const code: string[] = [];
  const fence = /^[ \t]*(`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;
  let prose = markdown;
  for (const match of markdown.matchAll(fence)) {
    if (SHELL_FENCES.has((match[2] ?? '').toLowerCase())) code.push(match[3] ?? '');
    prose = prose.replace(match[0], '\n');
  }
  for (const match of prose.matchAll(/(`+)([^`\n]+?)\1/g)) code.push(match[2] ?? '');
  return code;
}

/**
 * The pnpm commands (as words) a markdown text shows, `./run …` (pnpm after the bootstrap)
 * included; templates (`<name>`) are not commands.
 */
export function pnpmCommandsOf(markdown: string): string[][] {
  return codeOf(markdown)
    .flatMap((text) => commandsOf(text))
    .filter((words) => ['pnpm', './run'].includes(stripPrefixes(words)[0] ?? ''))
    .filter((words) => !words.some((word) => /<[^<>]+>/.test(word)));
}

/** The repository's markdown files, as git tracks them. */
export function markdownFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: root })
    .toString()
    .split('\0')
    .filter(Boolean);
}

/** Problems of every pnpm command the documents show, each named by file and line. */
export function checkDocuments(repo: Repo, files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(join(repo.root, file), 'utf8');
    return pnpmCommandsOf(text).flatMap((words) => {
      const shown = words.join(' ');
      const at = text.indexOf(shown);
      const line = at === -1 ? '' : `:${text.slice(0, at).split('\n').length}`;
      return checkCommand(words, repo, `${file}${line}: \`${shown}\``);
    });
  });
}
