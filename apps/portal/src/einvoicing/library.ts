/** The e-invoicing library, as loaded. */
export type EInvoicingLibrary = typeof import('@erp/einvoicing');

let loading: Promise<EInvoicingLibrary> | undefined;

/**
 * The e-invoicing library, loaded on the first e-invoice request rather than at start: its PDF
 * and XML packages (pdfkit, fontkit, xmlbuilder2, fast-xml-parser) cost ~30–40 MB of RSS and
 * ~0.2–0.4 s to load, for routes most processes never serve (docs/decisions.md, issue 30).
 */
export function einvoicingLibrary(): Promise<EInvoicingLibrary> {
  loading ??= import('@erp/einvoicing');
  return loading;
}
