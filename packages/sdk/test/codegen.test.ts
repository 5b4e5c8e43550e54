import { readFile } from 'node:fs/promises';
import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { generate, OPENAPI_PATH, OUTPUTS } from '../codegen';

describe('generated files', () => {
  it('match the contract’s openapi.json (run `pnpm codegen` when this fails)', async () => {
    const document = JSON.parse(await readFile(OPENAPI_PATH, 'utf8')) as OpenAPI3;
    const expected = await generate(document);
    for (const [name, file] of Object.entries(OUTPUTS)) {
      const committed = await readFile(file, 'utf8');
      expect(committed === expected[name as keyof typeof OUTPUTS], `${name} is stale`).toBe(true);
    }
    // openapi-typescript over the 5.6 MB document: ~20 s alone, a minute on a busy 2-core machine.
  }, 180_000);
});
