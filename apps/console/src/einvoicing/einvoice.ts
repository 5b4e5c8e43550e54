/**
 * What the console needs to know of e-invoices (SPEC §20), apart from React: which documents
 * have one, the formats, what a refusal (`facture_electronique_invalide`) says, the body type
 * of an imported file, where the draft made of it lives, and the share capital's euros ↔ cents.
 */
import type { ApiError } from '@erp/sdk';

/** The formats an issued invoice or credit note is written in, as the buttons name them. */
export const EINVOICE_FORMATS = [
  { format: 'facturx', label: 'Factur-X', hint: 'a readable PDF/A-3 with the CII attached' },
  { format: 'ubl', label: 'UBL', hint: 'UBL 2.1 XML (Peppol)' },
  { format: 'cii', label: 'CII', hint: 'UN/CEFACT CII D16B XML' },
] as const;

/** Resources whose issued documents the portal writes as e-invoices. */
export const ISSUED_KINDS = new Set(['invoice', 'credit_note']);
/** Resources an e-invoice may have been imported into (the original kept). */
export const IMPORTED_KINDS = new Set(['supplier_invoice', 'debit_note']);

/** An issued document has an e-invoice: not a draft, not cancelled. */
export function hasEInvoice(status: unknown): boolean {
  return typeof status === 'string' && status !== 'brouillon' && status !== 'annule';
}

/** The body type of an imported file: a PDF (Factur-X) by its name or type, XML otherwise. */
export function importContentType(file: { name: string; type: string }): string {
  return /\.pdf$/i.test(file.name) || file.type === 'application/pdf'
    ? 'application/pdf'
    : 'application/xml';
}

/**
 * The console page of the draft an import made: from `Location` (`/api/v1/debit-notes/…`),
 * else from the body (a debit note has a `debit_note_date`).
 */
export function draftPage(location: string | null | undefined, body: unknown): string | undefined {
  const match = /\/api\/v1\/(supplier-invoices|debit-notes)\/([^/?#]+)$/.exec(location ?? '');
  if (match) return `/records/${match[1]}/${match[2]}`;
  const row = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (typeof row.id !== 'string') return undefined;
  return `/records/${'debit_note_date' in row ? 'debit-notes' : 'supplier-invoices'}/${row.id}`;
}

export interface FailedRule {
  id: string;
  text: string;
}

/** The EN 16931 rules a refusal names (`params.rules`). */
export function failedRules(error: ApiError | undefined): FailedRule[] {
  const rules = error?.params.rules;
  if (!Array.isArray(rules)) return [];
  return rules
    .filter((r): r is { id: unknown; text: unknown } => !!r && typeof r === 'object')
    .map((r) => ({ id: String(r.id ?? ''), text: String(r.text ?? '') }));
}

/** A rule's text without the `[BR-CO-15]-` its id already says. */
export function ruleText(rule: FailedRule): string {
  const prefix = `[${rule.id}]`;
  const text = rule.text.trim();
  return text.startsWith(prefix) ? text.slice(prefix.length).replace(/^\s*[-–:]\s*/, '') : text;
}

export interface UnknownSupplier {
  name: string;
  vat_number: string | null;
  registration_number: string | null;
  country_code: string | null;
}

/** The seller no supplier matches (`params.supplier`): the one to create first. */
export function unknownSupplier(error: ApiError | undefined): UnknownSupplier | undefined {
  const supplier = error?.params.supplier;
  if (!supplier || typeof supplier !== 'object') return undefined;
  const s = supplier as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return {
    name: text(s.name) ?? 'the seller',
    vat_number: text(s.vat_number),
    registration_number: text(s.registration_number),
    country_code: text(s.country_code),
  };
}

/**
 * The new supplier form, filled with what the e-invoice says of its seller (the VAT number
 * without the dots and spaces some documents print: the import matches it so).
 */
export function newSupplierLink(supplier: UnknownSupplier): string {
  const query = new URLSearchParams();
  if (supplier.name !== 'the seller') query.set('name', supplier.name);
  if (supplier.vat_number)
    query.set('vat_number', supplier.vat_number.replace(/[\s.]/g, '').toUpperCase());
  if (supplier.registration_number)
    query.set('registration_number', supplier.registration_number.replace(/\s/g, ''));
  if (supplier.country_code) query.set('country_code', supplier.country_code);
  const search = query.toString();
  return `/records/suppliers/new${search ? `?${search}` : ''}`;
}

const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Euros as typed (`50000`, `50 000.50`, `50,000.50`, `50000,5`) as exact cents, by string
 * arithmetic: more than two decimals, a sign, or anything else is an error to show.
 */
export function eurosToCents(typed: string): { cents: bigint } | { error: string } {
  let text = typed.replace(/[\s\u00a0\u202f]/g, '');
  // A lone comma before one or two final digits is a decimal comma; other commas group thousands.
  if (!text.includes('.') && /^\d+,\d{1,2}$/.test(text)) text = text.replace(',', '.');
  else if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return { error: 'an amount in euros, like 50000 or 50 000.00' };
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > 2) return { error: 'at most two decimals: the capital is kept in cents' };
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  if (cents > MAX_CENTS) return { error: 'too large an amount' };
  return { cents };
}

/** Cents as euros to edit (`5000000` → `50000.00`). */
export function centsToEuros(cents: number | bigint): string {
  const value = BigInt(cents);
  const digits = (value < 0n ? -value : value).toString().padStart(3, '0');
  return `${value < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
