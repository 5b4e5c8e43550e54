import type { Client } from './client.js';
import { ApiError } from './errors.js';
import type { components, routes } from './gen/accounting.gen.js';
import type { RawBody, Result, Routes } from './types.js';

/** The formats an issued document is served in (SPEC §20). */
export type EInvoiceFormat = 'facturx' | 'ubl' | 'cii';

/** A file the portal answered: its bytes, media type and the name it suggests. */
export interface EInvoiceFile {
  bytes: Uint8Array;
  /** `application/pdf` (Factur-X) or `application/xml; charset=utf-8` (UBL, CII). */
  contentType: string;
  /** From `Content-Disposition` (`INV-2026-00001-ubl.xml`); undefined when there is none. */
  fileName: string | undefined;
}

/** A kept original: the file as received, and its SHA-256 (`X-Content-SHA256`, hex). */
export interface OriginalEInvoiceFile extends EInvoiceFile {
  sha256: string | undefined;
}

/** One rule a refused e-invoice failed: its id (`BR-CO-15`, `CII-XSD`, `SYNTAX`) and text. */
export interface EInvoiceRule {
  id: string;
  text: string;
}

/** The seller of an imported document when no supplier matches it (create it first). */
export interface EInvoiceUnknownSupplier {
  name?: string;
  vat_number?: string;
  registration_number?: string;
  country_code?: string;
  [key: string]: unknown;
}

/** `params` of `facture_electronique_invalide`. */
export interface EInvoiceRefusal {
  /** The failed rules, once each (empty only when `supplier` says what is missing). */
  rules: EInvoiceRule[];
  /** An import whose seller matches no supplier: who it is. */
  supplier?: EInvoiceUnknownSupplier;
  [key: string]: unknown;
}

/**
 * 422 `facture_electronique_invalide`: a document the rules refuse (an import), or one the
 * company settings or the customer cannot make valid (a download). `params.rules` is typed.
 */
export class EInvoiceError extends ApiError {
  override name = 'EInvoiceError';
  declare readonly code: 'facture_electronique_invalide';
  declare readonly params: EInvoiceRefusal;

  constructor(message: string, params: EInvoiceRefusal, status = 422) {
    super('facture_electronique_invalide', message, params, status);
  }
}

type Schemas = components['schemas'];

/** What an import made: a draft supplier invoice (type 380) or debit note (381), and its path. */
export type ImportedEInvoice =
  | { type: 'supplier_invoice'; record: Schemas['SupplierInvoice']; location: string }
  | { type: 'debit_note'; record: Schemas['DebitNote']; location: string };

export interface EInvoiceOptions {
  /** `invoices` or `credit-notes`: an issued document of the tenant. */
  document: 'invoices' | 'credit-notes';
  id: string;
  /** Default `facturx` (a PDF/A-3 with the CII attached). */
  format?: EInvoiceFormat;
  signal?: AbortSignal;
}

export interface OriginalEInvoiceOptions {
  /** `supplier-invoices` or `debit-notes`: a document imported from an e-invoice. */
  document: 'supplier-invoices' | 'debit-notes';
  id: string;
  signal?: AbortSignal;
}

export interface ImportEInvoiceOptions {
  signal?: AbortSignal;
}

// Files, and the portal's JSON errors.
const FILE_ACCEPT = 'application/pdf, application/xml, application/json;q=0.5';

/**
 * An issued invoice or credit note as an e-invoice: Factur-X (PDF), UBL or CII (XML). Throws
 * the portal's error: `EInvoiceError` when the settings or the customer lack what the rules
 * need (`params.rules`), an `ApiError` otherwise (`transition_invalide` for a draft).
 *
 * @example
 * const { bytes, fileName } = await einvoice(client, { document: 'invoices', id, format: 'ubl' });
 */
export async function einvoice<R extends Routes>(
  client: Client<R>,
  options: EInvoiceOptions,
): Promise<EInvoiceFile> {
  const accounting = asAccounting(client);
  const init = {
    path: { id: options.id },
    query: { format: options.format ?? 'facturx' },
    headers: { accept: FILE_ACCEPT },
    parseAs: 'bytes',
    ...(options.signal ? { signal: options.signal } : {}),
  } as const;
  const result =
    options.document === 'invoices'
      ? await accounting.get('/api/v1/invoices/{id}/einvoice', init)
      : await accounting.get('/api/v1/credit-notes/{id}/einvoice', init);
  return file(result);
}

/**
 * The file a supplier invoice or debit note was imported from, byte for byte. Throws an
 * `ApiError` (`introuvable` for a document typed in).
 */
export async function originalEInvoice<R extends Routes>(
  client: Client<R>,
  options: OriginalEInvoiceOptions,
): Promise<OriginalEInvoiceFile> {
  const accounting = asAccounting(client);
  const init = {
    path: { id: options.id },
    headers: { accept: FILE_ACCEPT },
    parseAs: 'bytes',
    ...(options.signal ? { signal: options.signal } : {}),
  } as const;
  const result =
    options.document === 'supplier-invoices'
      ? await accounting.get('/api/v1/supplier-invoices/{id}/einvoice', init)
      : await accounting.get('/api/v1/debit-notes/{id}/einvoice', init);
  const read = file(result);
  return { ...read, sha256: result.response?.headers.get('x-content-sha256') ?? undefined };
}

/**
 * Imports a supplier's e-invoice (UBL, CII, or a Factur-X PDF) as a draft supplier invoice or
 * debit note. `contentType` defaults to the Blob's own type, else `application/pdf` for bytes
 * starting `%PDF-`, else `application/xml`. Throws `EInvoiceError` when the rules refuse it
 * or no supplier matches the seller (`params.rules`, `params.supplier`), an `ApiError`
 * otherwise (`conflit`: that supplier's number was imported already).
 *
 * @example
 * const { type, record } = await importEInvoice(client, await readFile('invoice.xml'));
 */
export async function importEInvoice<R extends Routes>(
  client: Client<R>,
  body: RawBody,
  contentType?: string,
  options: ImportEInvoiceOptions = {},
): Promise<ImportedEInvoice> {
  const result = await asAccounting(client).post('/api/v1/supplier-invoices/import', {
    raw: body,
    headers: { 'content-type': contentType ?? mediaTypeOf(body) },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.error) throw refined(result.error);
  const location = result.response.headers.get('location') ?? '';
  return location.includes('/debit-notes/')
    ? { type: 'debit_note', record: result.data as Schemas['DebitNote'], location }
    : { type: 'supplier_invoice', record: result.data as Schemas['SupplierInvoice'], location };
}

/** Any client, whichever routes it is typed with, calls the accounting module's files here. */
function asAccounting<R extends Routes>(client: Client<R>): Client<routes> {
  return client as unknown as Client<routes>;
}

/** Whether an error is a refused e-invoice, with its rules typed. */
export function isEInvoiceError(error: unknown): error is EInvoiceError {
  return error instanceof EInvoiceError;
}

function file(result: Result<Uint8Array>): EInvoiceFile {
  if (result.error) throw refined(result.error);
  const headers = result.response.headers;
  return {
    bytes: result.data,
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    fileName: fileNameOf(headers.get('content-disposition')),
  };
}

/** `facture_electronique_invalide` becomes an `EInvoiceError` (its `rules` always an array). */
function refined(error: ApiError): ApiError {
  if (error.code !== 'facture_electronique_invalide') return error;
  const rules = Array.isArray(error.params.rules) ? (error.params.rules as EInvoiceRule[]) : [];
  const refusal = { ...error.params, rules } as EInvoiceRefusal;
  const typed = new EInvoiceError(error.message, refusal, error.status);
  if (error.stack) typed.stack = error.stack;
  return typed;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

function mediaTypeOf(body: RawBody): string {
  if (typeof Blob !== 'undefined' && body instanceof Blob && body.type) return body.type;
  if (typeof body === 'string') return 'application/xml';
  const bytes = body instanceof ArrayBuffer ? new Uint8Array(body.slice(0, 5)) : body;
  if (bytes instanceof Uint8Array && PDF_MAGIC.every((b, i) => bytes[i] === b))
    return 'application/pdf';
  return 'application/xml';
}

/** `attachment; filename="x.pdf"`, or RFC 6266's `filename*=UTF-8''…` (preferred). */
function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {}
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(disposition);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/.exec(disposition);
  return bare?.[1];
}
