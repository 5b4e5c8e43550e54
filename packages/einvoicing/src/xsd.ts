/**
 * The CII D16B schema check (the CEN copy of the UN/CEFACT XSD, `rules/xsd/cii-d16b`): the
 * Schematron rules assume a schema-valid document, so a CII is checked against its XSD first.
 * libxml2 compiled to WebAssembly (`xmllint-wasm`), which runs in a worker thread of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { rulesDirectory } from './validate';

const MAIN = 'CrossIndustryInvoice_100pD16B.xsd';
let schema:
  | {
      main: { fileName: string; contents: string };
      preload: { fileName: string; contents: string }[];
    }
  | undefined;

function loadSchema() {
  if (schema) return schema;
  const dir = path.join(rulesDirectory(), 'xsd', 'cii-d16b');
  const read = (fileName: string) => ({
    fileName,
    contents: readFileSync(path.join(dir, fileName), 'utf8'),
  });
  schema = {
    main: read(MAIN),
    preload: readdirSync(dir)
      .filter((f) => f.endsWith('.xsd') && f !== MAIN)
      .map(read),
  };
  return schema;
}

/** The XSD errors of a CII document (none: schema-valid). */
export async function ciiSchemaErrors(xml: string): Promise<string[]> {
  const { main, preload } = loadSchema();
  const result = await validateXML({
    xml: [{ fileName: 'invoice.xml', contents: xml }],
    schema: [main],
    preload,
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
