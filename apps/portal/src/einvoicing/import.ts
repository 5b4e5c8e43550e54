import { createHash } from 'node:crypto';
import { ApiError, catalogue, documentTotals, type Resource, resourceRoutes } from '@erp/contract';
import type { EInvoice, RuleFailure } from '@erp/einvoicing';
import type pg from 'pg';
import type { ZodType } from 'zod';
import type { ActorRef } from '../http/context';
import { type OperationResult, runOperation } from '../resources';
import { einvoicingLibrary } from './library';

/** What an import received: the file as sent and its media type. */
export interface ReceivedFile {
  bytes: Uint8Array;
  mediaType: string;
}

/** A file read and judged by the rules, before anything is written. */
export interface CheckedEInvoice {
  syntax: 'ubl' | 'cii' | 'facturx';
  xml: string;
  invoice: EInvoice;
  file: ReceivedFile;
  sha256: string;
}

const refused = (message: string, rules: { id: string; text: string }[], extra = {}) =>
  new ApiError('facture_electronique_invalide', message, { rules, ...extra });

/** The failed rules once each (an assertion fails once per element it is about). */
function distinct(failures: RuleFailure[]): { id: string; text: string }[] {
  const seen = new Map<string, string>();
  for (const f of failures) if (!seen.has(f.id)) seen.set(f.id, f.text);
  return [...seen].map(([id, text]) => ({ id, text }));
}

/**
 * Reads the file (a Factur-X PDF's attached XML, or the XML itself) and runs the official
 * rules on it, off the event loop. Not an e-invoice, or any fatal failure: 422
 * `facture_electronique_invalide` with the rules.
 */
export async function checkEInvoice(file: ReceivedFile): Promise<CheckedEInvoice> {
  const {
    ciiSchemaErrors,
    FacturXError,
    readFacturX,
    readInvoice,
    syntaxOf,
    ValidationError,
    validator,
    XmlError,
  } = await einvoicingLibrary();
  const isPdf =
    file.mediaType === 'application/pdf' ||
    Buffer.from(file.bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
  let xml: string;
  try {
    xml = isPdf
      ? (await readFacturX(file.bytes)).xml
      : new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch (error) {
    if (error instanceof FacturXError)
      throw refused(`Not a Factur-X PDF: ${error.message}`, [
        { id: 'FACTUR-X', text: error.message },
      ]);
    throw refused('The body is not UTF-8 text.', [
      { id: 'SYNTAX', text: 'An XML e-invoice is UTF-8 text.' },
    ]);
  }
  if (!syntaxOf(xml))
    throw refused('Not an e-invoice: neither a UBL 2.1 Invoice or CreditNote, nor a CII D16B.', [
      {
        id: 'SYNTAX',
        text: 'The root is neither a UBL 2.1 Invoice or CreditNote nor a CII D16B CrossIndustryInvoice.',
      },
    ]);
  let invoice: EInvoice;
  try {
    invoice = readInvoice(xml);
  } catch (error) {
    if (error instanceof XmlError)
      throw refused(`The e-invoice cannot be read: ${error.message}`, [
        { id: 'SYNTAX', text: error.message },
      ]);
    throw error;
  }
  // The rules assume a schema-valid document: a CII is checked against its XSD first.
  if (syntaxOf(xml) === 'cii') {
    const errors = await ciiSchemaErrors(xml);
    if (errors.length)
      throw refused(
        `The CII is not valid against the D16B schema: ${errors[0]}`,
        [...new Set(errors.slice(0, 20))].map((text) => ({ id: 'CII-XSD', text })),
      );
  }
  let fatal: RuleFailure[];
  try {
    fatal = (await validator.validate(xml)).fatal;
  } catch (error) {
    if (error instanceof ValidationError)
      throw refused(`The rules cannot read the e-invoice: ${error.message}`, [
        { id: 'SYNTAX', text: error.message },
      ]);
    throw error;
  }
  if (fatal.length) {
    const rules = distinct(fatal);
    throw refused(
      `The e-invoice fails ${rules.length} EN 16931 rule${rules.length > 1 ? 's' : ''}: ${rules.map((r) => r.id).join(', ')}.`,
      rules,
    );
  }
  return {
    syntax: isPdf ? 'facturx' : syntaxOf(xml)!,
    xml,
    invoice,
    file,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
  };
}

const byName = (name: string) => catalogue.find((r) => r.name === name)!;

/** What each document type of the norm becomes here, and where its number goes. */
const TARGETS = {
  '380': {
    resource: () => byName('supplier_invoice'),
    type: 'supplier_invoice',
    number: 'supplier_invoice_number',
  },
  '381': { resource: () => byName('debit_note'), type: 'debit_note', number: 'supplier_reference' },
} as const;

interface SupplierRow {
  id: string;
  payment_terms_days: number | null;
}

/** The supplier whose VAT number is the seller's, else whose registration is its SIREN or SIRET. */
async function matchSupplier(
  client: pg.PoolClient,
  tenantId: string,
  invoice: EInvoice,
): Promise<SupplierRow> {
  const seller = invoice.seller;
  const vat = seller.vatId?.replace(/[\s.]/g, '').toUpperCase() ?? null;
  const registrations = [seller.legalId?.value, seller.id?.value]
    .map((v) => v?.replace(/\s+/g, ''))
    .filter((v): v is string => !!v && /^\d{9}(\d{5})?$/.test(v));
  const sirens = [...new Set(registrations.map((r) => r.slice(0, 9)))];
  const { rows } = await client.query<SupplierRow & { by_vat: boolean }>(
    `SELECT id, payment_terms_days,
        upper(regexp_replace(coalesce(vat_number, ''), '[\\s.]', '', 'g')) = $2 AS by_vat
       FROM suppliers
      WHERE tenant_id = $1
        AND (upper(regexp_replace(coalesce(vat_number, ''), '[\\s.]', '', 'g')) = $2
             OR left(regexp_replace(coalesce(registration_number, ''), '\\s', '', 'g'), 9) = ANY($3::text[]))
      ORDER BY (upper(regexp_replace(coalesce(vat_number, ''), '[\\s.]', '', 'g')) = $2) DESC, created_at
      LIMIT 1`,
    [tenantId, vat ?? '', sirens],
  );
  if (!rows[0])
    throw refused(
      `No supplier has the VAT number ${seller.vatId ?? '(none)'}${sirens.length ? ` or the SIREN ${sirens.join(', ')}` : ''}: create ${seller.name} first.`,
      [],
      {
        supplier: {
          name: seller.name,
          vat_number: seller.vatId ?? null,
          registration_number: registrations[0] ?? null,
          country_code: seller.address.country || null,
        },
      },
    );
  return rows[0];
}

/** Each (category, rate) the document uses, the purchase tax of that category with that rate on the date. */
async function purchaseTaxes(
  client: pg.PoolClient,
  tenantId: string,
  invoice: EInvoice,
): Promise<Map<string, string>> {
  const wanted = [...new Set(invoice.lines.map((l) => `${l.vat.category}|${l.vat.rate}`))];
  const { rows } = await client.query<{ key: string; tax_id: string }>(
    `SELECT DISTINCT ON (w.key) w.key, t.id AS tax_id
       FROM unnest($2::text[]) AS w(key)
       JOIN taxes t ON t.tenant_id = $1 AND t.scope IN ('purchases', 'both') AND t.status = 'actif'
       JOIN tax_rates r ON r.tenant_id = t.tenant_id AND r.tax_id = t.id
        AND r.valid_from <= $3::date AND (r.valid_until IS NULL OR r.valid_until >= $3::date)
      WHERE r.rate = split_part(w.key, '|', 2)::numeric
        AND coalesce(t.vat_category, CASE WHEN r.rate > 0 THEN 'S' ELSE 'Z' END) = split_part(w.key, '|', 1)
      ORDER BY w.key, t.code`,
    [tenantId, wanted, invoice.issueDate],
  );
  return new Map(rows.map((r) => [r.key, r.tax_id]));
}

/** The bill a supplier's credit note corrects (BG-3), among that supplier's; none: null. */
async function correctedInvoice(
  client: pg.PoolClient,
  tenantId: string,
  supplierId: string,
  invoice: EInvoice,
): Promise<string | null> {
  const number = invoice.precedingInvoice?.number;
  if (!number) return null;
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM supplier_invoices WHERE tenant_id = $1 AND supplier_id = $2
        AND supplier_invoice_number = $3 AND status <> 'annule' ORDER BY created_at LIMIT 1`,
    [tenantId, supplierId, number],
  );
  return rows[0]?.id ?? null;
}

/** The draft's body as its create route checks it; what our schema refuses: 422 with the fields. */
function validated(resource: Resource, body: Record<string, unknown>): Record<string, unknown> {
  const route = resourceRoutes(resource, new Map(catalogue.map((r) => [r.name, r]))).find(
    (r) => r.kind === 'create',
  )!.route;
  const json = route.request?.body?.content['application/json'];
  const schema = json && 'schema' in json ? (json.schema as ZodType) : undefined;
  const result = schema!.safeParse(body);
  if (result.success) return result.data as Record<string, unknown>;
  const rules = result.error.issues.map((issue) => ({
    id: `FIELD ${issue.path.join('.')}`,
    text: issue.message,
  }));
  throw refused(
    `The e-invoice does not fit a ${resource.name}: ${rules[0]!.id}: ${rules[0]!.text}.`,
    rules,
  );
}

function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * A checked e-invoice as a draft, through the engine (number, history, `created` event): a
 * supplier invoice for an invoice, a debit note for a credit note. Its lines and totals are the
 * document's (422 otherwise); the file is kept; the same supplier's number twice, while the
 * first is not cancelled: 409 `conflit` (a unique key decides between concurrent imports).
 */
export async function importEInvoice(
  client: pg.PoolClient,
  tenantId: string,
  checked: CheckedEInvoice,
  actor: ActorRef,
): Promise<OperationResult & { resource: Resource; id: string }> {
  const { invoice } = checked;
  const { unitName } = await einvoicingLibrary();
  const target = TARGETS[invoice.typeCode];
  const resource = target.resource();
  const supplier = await matchSupplier(client, tenantId, invoice);
  const taxes = await purchaseTaxes(client, tenantId, invoice);
  // The norm's prices are never negative (BR-27), a return or discount line has a negative
  // quantity; our lines count positive quantities, the sign goes to the price.
  const lines = invoice.lines.map((l) => ({
    description:
      [l.name, l.description && l.description !== l.name ? l.description : undefined]
        .filter(Boolean)
        .join(' — ')
        .slice(0, 1000) || `Line ${l.id}`,
    quantity: l.quantity.startsWith('-') ? l.quantity.slice(1) : l.quantity,
    unit_of_measure: unitName(l.unitCode),
    unit_price_cents: Number(l.quantity.startsWith('-') ? -l.priceCents : l.priceCents),
    tax_rate: l.vat.rate,
    tax_id: taxes.get(`${l.vat.category}|${l.vat.rate}`) ?? null,
  }));
  const computed = documentTotals(lines);
  if (
    BigInt(computed.subtotal_cents) !== invoice.totals.taxExclusiveCents ||
    BigInt(computed.tax_cents) !== invoice.totals.taxCents
  )
    throw refused(
      `The lines add up to ${computed.subtotal_cents} + ${computed.tax_cents} VAT (in cents), the document says ${invoice.totals.taxExclusiveCents} + ${invoice.totals.taxCents}: its VAT is not rounded per category and rate on the sum of the lines, as these books compute it.`,
      [
        {
          id: 'TOTALS',
          text: 'The document’s totals are not its lines’ as the books compute them (net per line, VAT per rate on the sum).',
        },
      ],
    );
  const { rows: orders } = invoice.orderReference
    ? await client.query<{ id: string }>(
        'SELECT id FROM purchase_orders WHERE tenant_id = $1 AND supplier_id = $2 AND number = $3',
        [tenantId, supplier.id, invoice.orderReference],
      )
    : { rows: [] };
  const notes = [
    `Imported e-invoice ${invoice.number} (${checked.syntax.toUpperCase()}) from ${invoice.seller.name}.`,
    invoice.orderReference && !orders[0]
      ? `Order reference: ${invoice.orderReference}.`
      : undefined,
    ...(invoice.notes ?? []).map((n) => n.text),
  ]
    .filter(Boolean)
    .join('\n')
    .slice(0, 5000);
  const common = {
    supplier_id: supplier.id,
    currency: invoice.currency,
    lines,
    notes,
    [target.number]: invoice.number.slice(0, 100),
  };
  const body =
    invoice.typeCode === '380'
      ? {
          ...common,
          invoice_date: invoice.issueDate,
          due_date: invoice.dueDate ?? addDays(invoice.issueDate, supplier.payment_terms_days ?? 0),
          ...(orders[0] ? { purchase_order_id: orders[0].id } : {}),
        }
      : {
          ...common,
          debit_note_date: invoice.issueDate,
          reason: 'other',
          supplier_invoice_id: await correctedInvoice(client, tenantId, supplier.id, invoice),
        };
  const { rows: existing } = await client.query(
    `SELECT number FROM ${resource.table} WHERE tenant_id = $1 AND supplier_id = $2 AND ${target.number} = $3 AND status <> 'annule' LIMIT 1`,
    [tenantId, supplier.id, invoice.number],
  );
  if (existing[0])
    throw new ApiError(
      'conflit',
      `This supplier's ${invoice.number} is already ${existing[0].number}.`,
      { number: invoice.number, existing: existing[0].number },
    );
  const result = await runOperation(
    client,
    tenantId,
    { kind: 'create', resource, body: validated(resource, body) },
    actor,
  );
  const { id } = JSON.parse(result.body!) as { id: string };
  const kept = await client.query(
    `INSERT INTO einvoice_files AS f (tenant_id, document_type, document_id, supplier_id, invoice_number, syntax, media_type, sha256, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (tenant_id, supplier_id, invoice_number) DO UPDATE
        SET document_type = excluded.document_type, document_id = excluded.document_id, syntax = excluded.syntax,
            media_type = excluded.media_type, sha256 = excluded.sha256, content = excluded.content, received_at = now()
      WHERE NOT EXISTS (SELECT 1 FROM supplier_invoices s WHERE s.tenant_id = f.tenant_id AND f.document_type = 'supplier_invoice'
                          AND s.id = f.document_id AND s.status <> 'annule')
        AND NOT EXISTS (SELECT 1 FROM debit_notes d WHERE d.tenant_id = f.tenant_id AND f.document_type = 'debit_note'
                          AND d.id = f.document_id AND d.status <> 'annule')
     RETURNING id`,
    [
      tenantId,
      target.type,
      id,
      supplier.id,
      invoice.number,
      checked.syntax,
      checked.syntax === 'facturx' ? 'application/pdf' : 'application/xml',
      checked.sha256,
      Buffer.from(checked.file.bytes),
    ],
  );
  if (!kept.rowCount)
    throw new ApiError('conflit', `This supplier's ${invoice.number} was imported already.`, {
      number: invoice.number,
    });
  return { ...result, resource, id };
}

/** The file a document was imported from, as received. */
export async function importedFile(
  client: pg.PoolClient,
  tenantId: string,
  documentType: 'supplier_invoice' | 'debit_note',
  id: string,
): Promise<{ content: Buffer; mediaType: string; sha256: string; name: string } | undefined> {
  const { rows } = await client.query<{
    content: Buffer;
    media_type: string;
    sha256: string;
    invoice_number: string;
    syntax: string;
  }>(
    `SELECT content, media_type, sha256, invoice_number, syntax FROM einvoice_files
      WHERE tenant_id = $1 AND document_type = $2 AND document_id = $3`,
    [tenantId, documentType, id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const safe = row.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_');
  return {
    content: row.content,
    mediaType: row.media_type,
    sha256: row.sha256,
    name: `${safe}${row.syntax === 'facturx' ? '.pdf' : `-${row.syntax}.xml`}`,
  };
}
