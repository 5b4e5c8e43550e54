import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { GEN_DIR, generate, generatedOnDisk, OPENAPI_PATH, SRC } from '../codegen';
import { modulesOf } from '../codegen-modules';

describe('generated files', () => {
  let document: OpenAPI3;
  let expected: Map<string, string>;
  beforeAll(async () => {
    document = JSON.parse(await readFile(OPENAPI_PATH, 'utf8')) as OpenAPI3;
    // openapi-typescript over the 9 MB document: ~20 s alone, a minute on a busy 2-core machine.
    expected = await generate(document);
  }, 180_000);

  it('match the contract’s openapi.json (run `pnpm codegen` when this fails)', async () => {
    for (const [name, file] of expected) {
      const committed = await readFile(path.join(SRC, name), 'utf8').catch(() => undefined);
      expect(committed === file, `${name} is stale or missing`).toBe(true);
    }
    // A module the contract no longer has leaves no file behind in src/gen/.
    const left = (await generatedOnDisk()).filter((name) => !expected.has(name));
    expect(left, `left in ${GEN_DIR}`).toEqual([]);
  });

  it('gives every business module an entry, and every route to exactly one module', () => {
    const files = expected;
    const modules = modulesOf(document);
    for (const module of [...modules, 'platform']) {
      expect(files.has(`${module}.ts`), module).toBe(true);
      expect(files.has(`gen/${module}.gen.d.ts`), module).toBe(true);
    }
    const routed = (file: string) =>
      [...file.matchAll(/^ {8}"([^"]+)": paths\["[^"]+"\]\["(\w+)"\];$/gm)].map(
        (m) => `${m[2]} ${m[1]}`,
      );
    const whole = routed(files.get('api.gen.d.ts')!);
    const split = [...modules, 'platform'].flatMap((m) => routed(files.get(`gen/${m}.gen.d.ts`)!));
    expect(split.sort()).toEqual(whole.sort());
    expect(whole).toContain('get /api/v1/sales-orders');
  });

  it('are all outputs of turbo’s codegen task (a cached run restores them)', async () => {
    const turbo = JSON.parse(await readFile(path.join(SRC, '../turbo.json'), 'utf8')) as {
      tasks: { codegen: { outputs: string[] } };
    };
    const outputs = turbo.tasks.codegen.outputs;
    const covered = (name: string) =>
      outputs.includes(`src/${name}`) ||
      outputs.some((glob) => glob.startsWith('src/**/*') && name.endsWith(glob.slice(8)));
    expect([...expected.keys()].filter((name) => !covered(name))).toEqual([]);
  });
});
