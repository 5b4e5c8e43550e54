import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Where the committed openapi.json is: beside the bundle (the build copies it into dist/), else
 * the contract package's own file (run from source, tests, a bundle built elsewhere). Throws at
 * start when neither is there, rather than on the document's first request.
 */
export function committedOpenApiPath(moduleDir = import.meta.dirname): string {
  const beside = path.join(moduleDir, 'openapi.json');
  if (existsSync(beside)) return beside;
  return createRequire(path.join(moduleDir, 'index.js')).resolve('@erp/contract/openapi.json');
}

/**
 * The committed document's bytes, read from its file each time they are asked for (the served
 * document and its parts ask once each). Imported as JSON instead, the bundle held the whole
 * document as an object literal: ~9 MB more script source kept as a two-byte string, the object
 * itself, and the parser's peak, for ~90 MB of RSS from start (docs/decisions.md, issue 30).
 * Bytes, not text: the text would be a two-byte string of twice the size, only to be encoded back.
 */
export function committedOpenApi(file = committedOpenApiPath()): () => Uint8Array {
  return () => readFileSync(file);
}
