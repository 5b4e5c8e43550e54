/**
 * The runtime the product is developed, tested and shipped on (SPEC §15: Node.js 24 LTS), and
 * the bootstrap (tooling/bootstrap.sh, used by ./run and .ci/run) that brings it onto a
 * machine with an older Node.js.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const pinned = read('.node-version').trim();
const rootPackage = JSON.parse(read('package.json'));

describe('the runtime', () => {
  it('is the Node.js 24 that .node-version pins: these tests run on it', () => {
    // Printed so a run's log shows which Node.js ran the tests (.ci/run on a Node 20 machine).
    console.info(`tests run on node ${process.version} (${process.execPath})`);
    expect(process.version).toMatch(/^v24\./);
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(process.versions.node.split('.')[0]).toBe(pinned.split('.')[0]);
  });

  it('satisfies engines.node, which .nvmrc and .node-version agree with', () => {
    expect(rootPackage.engines.node).toBe('>=24.11.0 <25');
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major === 24 && minor! >= 11).toBe(true);
    expect(read('.nvmrc').trim()).toBe(pinned);
    expect(pinned.localeCompare('24.11.0', undefined, { numeric: true })).toBeGreaterThanOrEqual(0);
  });
});

/**
 * tooling/bootstrap.sh against stand-ins: a `node` answering as the machine's version, an `npm`
 * that records what it installs and lays out what the real one would. The real install is what
 * .ci/run does on every fresh clone; here, only the choices.
 */
describe('the bootstrap', () => {
  const sandboxes: string[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** Runs bootstrap_toolchain in a copy of the files it reads, the machine's node being `machine`. */
  function bootstrap(machine: string, machinePnpm = '9.0.0') {
    const dir = mkdtempSync(path.join(tmpdir(), 'erp-bootstrap-'));
    sandboxes.push(dir);
    const repo = path.join(dir, 'repo');
    const stubs = path.join(dir, 'stubs');
    mkdirSync(path.join(repo, 'tooling'), { recursive: true });
    mkdirSync(stubs);
    for (const file of ['tooling/bootstrap.sh', 'package.json', '.node-version'])
      copyFileSync(path.join(root, file), path.join(repo, file));
    const log = path.join(dir, 'npm.log');
    const script = (file: string, text: string) => {
      writeFileSync(file, `#!/bin/sh\n${text}\n`);
      chmodSync(file, 0o755);
    };
    // Each stand-in answers with the version written in a file beside it. `node <file> …` runs
    // the file: pnpm's launcher, here a shell script.
    const versionBeside = 'v=$(cat "$(dirname "$(readlink -f "$0")")/version")';
    script(
      path.join(stubs, 'node.sh'),
      `${versionBeside}\ncase "$1" in -p) echo "$v" ;; --version) echo "v$v" ;; *) exec "$@" ;; esac`,
    );
    script(path.join(stubs, 'pnpm.sh'), `${versionBeside}\necho "$v"`);
    // The machine's node and pnpm, each in a directory of its own (its version beside it).
    for (const [name, version] of [
      ['node', machine],
      ['pnpm', machinePnpm],
    ] as const) {
      mkdirSync(path.join(stubs, `machine-${name}`));
      copyFileSync(path.join(stubs, `${name}.sh`), path.join(stubs, `machine-${name}`, name));
      chmodSync(path.join(stubs, `machine-${name}`, name), 0o755);
      writeFileSync(path.join(stubs, `machine-${name}`, 'version'), version);
    }
    // npm: records its arguments, lays out what `npm install --prefix <dir> node@V` (the
    // package's bin) or `pnpm@V` would.
    script(
      path.join(stubs, 'npm'),
      [
        `echo "$*" >> ${log}`,
        'prefix=$3; for spec; do :; done',
        'case "$spec" in',
        `  node@*) mkdir -p "$prefix/node_modules/node/bin" "$prefix/node_modules/.bin"`,
        `    cp ${stubs}/node.sh "$prefix/node_modules/node/bin/node"`,
        `    echo "\${spec#node@}" > "$prefix/node_modules/node/bin/version"`,
        `    ln -s ../node/bin/node "$prefix/node_modules/.bin/node" ;;`,
        `  pnpm@*) mkdir -p "$prefix/node_modules/pnpm/bin"`,
        `    cp ${stubs}/pnpm.sh "$prefix/node_modules/pnpm/bin/pnpm.cjs"`,
        `    cp ${stubs}/pnpm.sh "$prefix/node_modules/pnpm/bin/pnpx.cjs"`,
        `    echo "\${spec#pnpm@}" > "$prefix/node_modules/pnpm/bin/version" ;;`,
        'esac',
      ].join('\n'),
    );
    const out = execFileSync(
      'bash',
      ['-c', '. tooling/bootstrap.sh && bootstrap_toolchain && command -v node && node --version'],
      {
        cwd: repo,
        env: {
          PATH: `${stubs}:${stubs}/machine-node:${stubs}/machine-pnpm:/usr/bin:/bin`,
          HOME: dir,
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const npm = (() => {
      try {
        return readFileSync(log, 'utf8').trim().split('\n');
      } catch {
        return [];
      }
    })();
    return { out, npm, repo };
  }
  const pnpmVersion = rootPackage.packageManager.replace('pnpm@', '');

  it('on Node 20 installs the pinned Node.js and pnpm from npm into .tools/ and puts them first', () => {
    const { out, npm, repo } = bootstrap('20.20.2');
    expect(npm).toEqual([
      `install --prefix ${repo}/.tools/node-${pinned} --no-save --no-package-lock --no-audit --no-fund --ignore-scripts=false --loglevel=error node@${pinned}`,
      `install --prefix ${repo}/.tools/pnpm-${pnpmVersion} --no-save --no-package-lock --no-audit --no-fund --ignore-scripts=false --loglevel=error pnpm@${pnpmVersion}`,
    ]);
    expect(out.trim().split('\n')).toEqual([`${repo}/.tools/bin/node`, `v${pinned}`]);
  });

  it('keeps a machine Node.js 24 at or above engines’ minimum, and a pnpm at the pinned version', () => {
    const { out, npm } = bootstrap('24.15.0', pnpmVersion);
    expect(npm).toEqual([]);
    expect(out.trim().split('\n')[1]).toBe('v24.15.0');
  });

  it('replaces a Node.js 24 below the minimum and a newer major alike', () => {
    for (const machine of ['24.3.0', '26.1.0']) {
      const { out, npm } = bootstrap(machine, pnpmVersion);
      expect(npm).toHaveLength(1);
      expect(npm[0]).toMatch(new RegExp(`node@${pinned}$`));
      expect(out.trim().split('\n')[1]).toBe(`v${pinned}`);
    }
  });
});
