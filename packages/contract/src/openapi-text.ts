/**
 * The committed openapi.json's exact text for a document: `pnpm codegen` writes it, the portal
 * serves it, and the contract's test holds the two to the same bytes.
 */
export function openApiText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
