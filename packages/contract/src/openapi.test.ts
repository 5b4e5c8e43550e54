import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from './errors';
import { buildOpenApiDocument } from './openapi';

const document = buildOpenApiDocument();

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('matches the committed openapi.json (run `pnpm codegen` after changing the contract)', () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('declares the three security schemes and the error object', () => {
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual([
      'apiKey',
      'internalApiKey',
      'session',
    ]);
    const error = document.components?.schemas?.Error as {
      properties: { code: { enum: string[] } };
    };
    expect(error.properties.code.enum.sort()).toEqual(Object.keys(errorCatalogue).sort());
  });

  it('gives every operation an error response and a summary', () => {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<string, { summary?: string; responses: object }>,
      )) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('4') || s.startsWith('5')),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
  });
});
