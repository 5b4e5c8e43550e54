export {
  buildEInvoice,
  type DocumentLine,
  type DocumentTax,
  InconsistentDocument,
  type PricedDocument,
} from './build';
export { toCii } from './cii';
export { FacturXError, facturxPdf, readFacturX } from './facturx';
export * from './model';
export { readInvoice } from './read';
export { EN16931, toUbl } from './ubl';
export {
  type RuleFailure,
  rulesDirectory,
  syntaxOf,
  ValidationError,
  type ValidationReport,
  Validator,
  validator,
} from './validate';
export { XmlError } from './xml';
export { ciiSchemaErrors } from './xsd';
