import { createRoute, z } from '@hono/zod-openapi';
import { debitNotes } from '../catalogue/accounting/debit-note';
import { supplierInvoices } from '../catalogue/accounting/supplier-invoice';
import { type ErrorCode, errorResponses } from '../errors';
import { resourceTag } from '../modules';
import { resourceSchemas } from '../registry/schemas';
import { IdParamsSchema, TenantHeadersSchema } from '../schemas/common';
import {
  CompanySettingsSchema,
  EInvoiceQuerySchema,
  UpdateCompanySettingsBodySchema,
} from '../schemas/einvoicing';
import { API_KEY, jsonBody, jsonResponse, SESSION } from './helpers';

const errors: ErrorCode[] = [
  'requete_invalide',
  'tenant_requis',
  'non_authentifie',
  'jeton_invalide',
  'cle_api_invalide',
  'tenant_invalide',
  'acces_refuse',
  'module_non_souscrit',
];

const companyPath = '/api/v1/settings/company';

export const getCompanySettings = createRoute({
  tags: ['Settings: company'],
  security: [SESSION, API_KEY],
  method: 'get',
  path: companyPath,
  operationId: 'getCompanySettings',
  summary: 'The company: the seller of every invoice',
  description:
    'Legal name, SIREN, SIRET, VAT number, address, IBAN and BIC, contact e-mail: what every e-invoice says of its seller (SPEC §20). Needs `accounting:read`.',
  request: { headers: TenantHeadersSchema },
  responses: {
    200: jsonResponse(CompanySettingsSchema, 'The company settings.'),
    ...errorResponses(...errors),
  },
});

export const updateCompanySettings = createRoute({
  tags: ['Settings: company'],
  security: [SESSION],
  method: 'put',
  path: companyPath,
  operationId: 'updateCompanySettings',
  summary: 'Set the company',
  description:
    "Admins only, through a session. The fields sent change (null clears one), the others stay. SIREN and SIRET are checked (nine and fourteen digits, Luhn's key; a SIRET starts with its SIREN), a French VAT number against its SIREN, an IBAN by its check digits: `requete_invalide` with `params.issues`.",
  request: { headers: TenantHeadersSchema, body: jsonBody(UpdateCompanySettingsBodySchema) },
  responses: {
    200: jsonResponse(CompanySettingsSchema, 'The settings as stored.'),
    ...errorResponses(...errors),
  },
});

const documents = {
  'application/pdf': {
    schema: z.string().openapi({ format: 'binary', description: 'A Factur-X PDF/A-3.' }),
  },
  'application/xml': {
    schema: z.string().openapi({ description: 'UBL 2.1 or CII D16B.' }),
  },
};

const einvoice = (resource: 'invoices' | 'credit-notes') =>
  createRoute({
    tags: [resourceTag(resource)],
    security: [SESSION, API_KEY],
    method: 'get',
    path: `/api/v1/${resource}/{id}/einvoice`,
    operationId: resource === 'invoices' ? 'getInvoiceEInvoice' : 'getCreditNoteEInvoice',
    summary: `The ${resource === 'invoices' ? 'invoice' : 'credit note'} as an electronic invoice (Factur-X, UBL or CII)`,
    description: `EN 16931 (SPEC §20): the seller from Settings → Company, the buyer from the customer, the lines, the VAT breakdown by category and rate (the taxes' \`vat_category\`), the due date, payment by transfer to the company's IBAN, the order${resource === 'invoices' ? '' : ' and the invoice credited'}. The totals are the document's, as posted. \`format=facturx\` (default) is a PDF/A-3 with the CII attached as \`factur-x.xml\`; \`ubl\` UBL 2.1; \`cii\` CII D16B. Only issued documents: a draft or a cancelled one is 409 \`transition_invalide\`. What the rules need and the settings or the customer lack (the company's name or country, the customer's country, a VAT number for a reverse charge): 422 \`facture_electronique_invalide\` naming the rules. Needs \`accounting:read\`.`,
    request: { headers: TenantHeadersSchema, params: IdParamsSchema, query: EInvoiceQuerySchema },
    responses: {
      200: {
        description: 'The document, with `Content-Disposition: attachment` and its file name.',
        content: documents,
      },
      ...errorResponses(
        ...errors,
        'introuvable',
        'transition_invalide',
        'facture_electronique_invalide',
      ),
    },
  });

export const getInvoiceEInvoice = einvoice('invoices');
export const getCreditNoteEInvoice = einvoice('credit-notes');

export const importSupplierInvoice = createRoute({
  tags: [resourceTag('supplier-invoices')],
  security: [SESSION, API_KEY],
  method: 'post',
  path: '/api/v1/supplier-invoices/import',
  operationId: 'importSupplierInvoice',
  summary:
    "Import a supplier's e-invoice (UBL, CII or Factur-X) as a draft supplier invoice or debit note",
  description:
    "The body is the file: `Content-Type: application/xml` (UBL 2.1 Invoice or CreditNote, CII D16B) or `application/pdf` (Factur-X or ZUGFeRD, its attached XML read). Checked by the official EN 16931 rules; a fatal failure is 422 `facture_electronique_invalide` with `params.rules` (`id`, `text`). The supplier is the one whose `vat_number` is the seller's VAT number, else whose `registration_number` is its SIREN or SIRET (none: 422 `facture_electronique_invalide` with `params.supplier`: create it first). An invoice (type 380) becomes a draft supplier invoice; a credit note (381) a draft debit note, on the supplier invoice it corrects when BG-3 names one of that supplier's `supplier_invoice_number`s (else on the supplier's account). The draft has the document's lines (document-level allowances and charges as lines of their own), dates, currency and number (`supplier_invoice_number`, a debit note's `supplier_reference`), the purchase order when the order reference (BT-13) is one of that supplier's; each line's tax is a purchase tax of the same category and rate when there is one, and the draft's totals are the document's (else 422). The file is kept as received: `GET /api/v1/supplier-invoices/{id}/einvoice` (`/debit-notes/{id}/einvoice`). The same supplier's number a second time, while the first is not cancelled: 409 `conflit`. Needs `accounting:write`.",
  request: {
    headers: TenantHeadersSchema,
    body: { required: true, content: documents },
  },
  responses: {
    201: jsonResponse(
      z.union([resourceSchemas(supplierInvoices).record, resourceSchemas(debitNotes).record]),
      'The draft: a supplier invoice (type 380), or a debit note (a credit note, 381). `Location` is its path.',
    ),
    ...errorResponses(
      ...errors,
      'conflit',
      'charge_trop_volumineuse',
      'facture_electronique_invalide',
    ),
  },
});

const original = (resource: 'supplier-invoices' | 'debit-notes') =>
  createRoute({
    tags: [resourceTag(resource)],
    security: [SESSION, API_KEY],
    method: 'get',
    path: `/api/v1/${resource}/{id}/einvoice`,
    operationId:
      resource === 'supplier-invoices' ? 'getSupplierInvoiceEInvoice' : 'getDebitNoteEInvoice',
    summary: `The e-invoice a ${resource === 'supplier-invoices' ? 'supplier invoice' : 'debit note'} was imported from, as received`,
    description: `Byte for byte the file imported${resource === 'debit-notes' ? " (a supplier's credit note)" : ''}, with its media type; \`X-Content-SHA256\` is its digest. A document typed in, not imported: 404 \`introuvable\`. Needs \`accounting:read\`.`,
    request: { headers: TenantHeadersSchema, params: IdParamsSchema },
    responses: {
      200: { description: 'The original file.', content: documents },
      ...errorResponses(...errors, 'introuvable'),
    },
  });

export const getSupplierInvoiceEInvoice = original('supplier-invoices');
export const getDebitNoteEInvoice = original('debit-notes');
