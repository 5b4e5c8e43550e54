import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi';
import { openApiText } from './openapi-text';

/** `pnpm codegen`: writes the committed openapi.json, the reviewable API diff. */
const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeFileSync(target, openApiText(buildOpenApiDocument()));
console.log(`wrote ${target}`);
