import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const portal = path.resolve(import.meta.dirname, '..');
const SOURCES = /\.tsx?$/;
const TESTS = /\.test\.tsx?$/;
/** Relative specifiers of static imports, re-exports and dynamic imports. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The served code's files: src/ without its tests (what tsup may bundle from src/main.ts). */
function servedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return servedFiles(file);
    return SOURCES.test(entry.name) && !TESTS.test(entry.name) ? [file] : [];
  });
}

/** What a file reaches outside src/ (the seed, the tests' harnesses) by a relative import. */
function reachesOut(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)]
    .map((m) => path.relative(portal, path.resolve(path.dirname(file), m[1]!)))
    .filter((target) => !target.startsWith(`src${path.sep}`))
    .map((target) => `${path.relative(portal, file)} → ${target}`);
}

describe('the seed is never served', () => {
  it('no file the portal serves from imports the seed or the tests', () => {
    const files = servedFiles(path.join(portal, 'src'));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(reachesOut)).toEqual([]);
  });
});
