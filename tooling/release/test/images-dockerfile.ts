import { readFileSync } from 'node:fs';

/** One instruction of a Dockerfile: its keyword and its arguments, continuation lines joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
  stage(name: string): Stage;
}

/** Parses the subset of Dockerfile syntax the repository's Dockerfile uses. */
export function parseDockerfile(file: string): Dockerfile {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, from = '', name = String(stages.length)] =
        /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name, from, instructions: [] });
    } else if (stages.length === 0 && upper === 'ARG') {
      const [name = '', value = ''] = args.split('=');
      globalArgs[name] = value;
    } else {
      stages.at(-1)?.instructions.push({ keyword: upper, args });
    }
  }
  return {
    globalArgs,
    stages,
    stage(name) {
      const found = stages.find((s) => s.name === name);
      if (!found) throw new Error(`Dockerfile: no stage ${name}`);
      return found;
    },
  };
}

/** `RUN --mount=… cmd` → `cmd`: build-time mounts have no meaning outside BuildKit. */
export function runCommand(instruction: Instruction): string {
  return instruction.args.replace(/^(--\S+\s+)*/, '');
}

/** `COPY [--from=stage] [--chown=…] src… dest` → its parts. */
export function copyArgs(instruction: Instruction): {
  from?: string;
  sources: string[];
  dest: string;
} {
  const words = instruction.args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

/** `ENV A=1 B=${X}` → { A: '1', B: value of X in `args` }. */
export function envPairs(
  instruction: Instruction,
  args: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    instruction.args.split(/\s+/).map((pair) => {
      const [name = '', value = ''] = pair.split('=');
      return [name, value.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? '')];
    }),
  );
}

/** `CMD ["node", "x"]` (exec form) → ['node', 'x']; HEALTHCHECK's options are dropped. */
export function execForm(instruction: Instruction): string[] {
  const json = instruction.args.slice(instruction.args.indexOf('['));
  return JSON.parse(json) as string[];
}
