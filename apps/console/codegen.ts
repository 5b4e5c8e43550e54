/**
 * Writes `src/records/catalogue.gen.json`: the compact description of the business resources
 * the records browser is built from (lists, filters, forms, lifecycle buttons), derived from
 * the registry in @erp/contract. `pnpm codegen` runs it after the contract's own codegen;
 * `codegen.test.ts` fails when the committed file differs from what this would write.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeCatalogue } from './catalogue-description';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const OUTPUT = path.join(HERE, 'src/records/catalogue.gen.json');

/** The file's text: one resource per line, so a registry change reads as a small diff. */
export function catalogueFile(): string {
  const { resources, ...rest } = describeCatalogue();
  const head = JSON.stringify(rest);
  const lines = resources.map((r) => JSON.stringify(r)).join(',\n');
  return `${head.slice(0, -1)},"resources":[\n${lines}\n]}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(OUTPUT, catalogueFile());
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
}
