import { EXAMPLE_COMPANY } from '@erp/contract';
/**
 * einvoice(), originalEInvoice() and importEInvoice() against the real portal (SPEC §20): a
 * seller tenant sets its company, issues an invoice and downloads it in the three formats; a
 * buyer tenant imports the UBL as a draft supplier invoice, reads the original back, and is
 * refused a duplicate and a tampered file with the failed rules typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  type Client,
  EInvoiceError,
  einvoice,
  importEInvoice,
  isEInvoiceError,
  originalEInvoice,
  type Result,
} from '../src/index';
import { type RealPortal, startRealPortal } from './portal';

// What a valid e-invoice needs of its seller: the demo's company, the contract's example.
const COMPANY = EXAMPLE_COMPANY;

let portal: RealPortal;
let seller: Client;
let buyer: Client;
let invoice: {
  id: string;
  number: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
};
let draftId: string;
const files: Record<'facturx' | 'ubl' | 'cii', Awaited<ReturnType<typeof einvoice>>> = {} as never;

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const ok = <T>(result: Result<T>): T => {
  if (result.error) throw result.error;
  return result.data;
};

beforeAll(async () => {
  portal = await startRealPortal();
  const sellerTenant = await portal.tenant('sdk-seller');
  // Settings → Company takes an admin's session; the rest goes through API keys.
  ok(await sellerTenant.admin.put('/api/v1/settings/company', { body: COMPANY }));
  seller = await sellerTenant.apiKey(['accounting:write', 'crm:write']);
  const buyerTenant = await portal.tenant('sdk-buyer');
  buyer = await buyerTenant.apiKey(['accounting:write', 'purchasing:write']);

  // Provisioning installed the French chart: VAT collected is 445710.
  let vatCollected: string | undefined;
  for await (const account of seller.paginate('/api/v1/accounts', { query: { page_size: 200 } }))
    if (account.code === '445710') vatCollected = account.id;
  const tax = ok(
    await seller.post('/api/v1/taxes', {
      body: {
        code: 'TVA-C20',
        name: 'TVA collectée 20 %',
        scope: 'sales',
        tax_kind: 'vat',
        account_id: vatCollected!,
        vat_category: 'S',
      },
    }),
  );
  ok(
    await seller.post('/api/v1/tax-rates', {
      body: { tax_id: tax.id, name: '20 %', rate: '20', valid_from: '2014-01-01' },
    }),
  );
  const customer = ok(
    await seller.post('/api/v1/customers', {
      body: {
        name: 'Martin & Fils <SA>',
        customer_type: 'company',
        active: true,
        vat_number: 'FR40303265045',
        registration_number: '30326504500018',
        street: '3 place Bellecour',
        postal_code: '69002',
        city: 'Lyon',
        country_code: 'FR',
      },
    }),
  );
  const body = {
    customer_id: customer.id,
    invoice_date: '2026-03-10',
    due_date: '2026-04-09',
    currency: 'EUR',
    lines: [1, 2, 3, 4, 5].map((n) => ({
      description: `Article ${n}`,
      quantity: String(n),
      unit_price_cents: 1_000 * n + 5,
      tax_rate: '20',
      tax_id: tax.id,
    })),
  };
  const draft = ok(await seller.post('/api/v1/invoices', { body }));
  invoice = ok(await seller.post('/api/v1/invoices/{id}/issue', { path: { id: draft.id } }));
  draftId = ok(await seller.post('/api/v1/invoices', { body })).id;
}, 240_000);
afterAll(() => portal?.close());

// The portal loads the EN 16931 rules on its first import and draws its first PDF: seconds on a
// busy machine (CI), not the default 5 s.
describe('einvoice(): an issued invoice in the three formats', { timeout: 60_000 }, () => {
  it('downloads Factur-X, UBL and CII with their media type and file name', async () => {
    for (const format of ['facturx', 'ubl', 'cii'] as const)
      files[format] = await einvoice(seller, { document: 'invoices', id: invoice.id, format });
    const name = invoice.number.replace(/[^A-Za-z0-9._-]+/g, '_');
    expect(files.facturx.contentType).toBe('application/pdf');
    expect(files.facturx.fileName).toBe(`${name}.pdf`);
    // A binary answer arrives intact: the PDF's header and its end-of-file marker.
    expect(text(files.facturx.bytes.subarray(0, 5))).toBe('%PDF-');
    expect(text(files.facturx.bytes.subarray(-8))).toContain('%%EOF');
    expect(files.ubl.contentType).toMatch(/^application\/xml/);
    expect(files.ubl.fileName).toBe(`${name}-ubl.xml`);
    expect(text(files.ubl.bytes)).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
    expect(files.cii.fileName).toBe(`${name}-cii.xml`);
    expect(text(files.cii.bytes)).toContain('CrossIndustryInvoice');
    // The default is Factur-X.
    const byDefault = await einvoice(seller, { document: 'invoices', id: invoice.id });
    expect(byDefault.contentType).toBe('application/pdf');
  });

  it('throws the portal’s error for a draft (transition_invalide), not an EInvoiceError', async () => {
    const failure = await einvoice(seller, {
      document: 'invoices',
      id: draftId,
      format: 'ubl',
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).not.toBeInstanceOf(EInvoiceError);
    expect(failure).toMatchObject({ code: 'transition_invalide', status: 409 });
  });
});

describe('importEInvoice() and originalEInvoice() at the customer’s', { timeout: 60_000 }, () => {
  it('an unknown seller is an EInvoiceError naming it', async () => {
    const failure = await importEInvoice(buyer, files.ubl.bytes).catch((e: unknown) => e);
    expect(isEInvoiceError(failure)).toBe(true);
    if (!isEInvoiceError(failure)) return;
    expect(failure.status).toBe(422);
    expect(Array.isArray(failure.params.rules)).toBe(true);
    expect(failure.params.supplier).toMatchObject({ name: 'Demo SARL' });
  });

  it('imports the UBL as a draft supplier invoice with the invoice’s totals; the original comes back byte for byte', async () => {
    ok(
      await buyer.post('/api/v1/suppliers', {
        body: { name: 'Demo SARL', vat_number: COMPANY.vat_number },
      }),
    );
    const imported = await importEInvoice(buyer, files.ubl.bytes);
    expect(imported.type).toBe('supplier_invoice');
    if (imported.type !== 'supplier_invoice') return;
    expect(imported.location).toBe(`/api/v1/supplier-invoices/${imported.record.id}`);
    expect(imported.record).toMatchObject({
      status: 'brouillon',
      supplier_invoice_number: invoice.number,
      subtotal_cents: invoice.subtotal_cents,
      tax_cents: invoice.tax_cents,
      total_cents: invoice.total_cents,
    });
    expect(imported.record.lines).toHaveLength(5);

    const original = await originalEInvoice(buyer, {
      document: 'supplier-invoices',
      id: imported.record.id,
    });
    expect(original.bytes).toEqual(files.ubl.bytes);
    expect(original.contentType).toMatch(/^application\/xml/);
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', original.bytes as Uint8Array<ArrayBuffer>),
    );
    expect(original.sha256).toBe(Buffer.from(digest).toString('hex'));
  });

  it('the same number again is conflit; a typed-in document has no original', async () => {
    const twice = await importEInvoice(buyer, text(files.cii.bytes)).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(ApiError);
    expect(twice).toMatchObject({ code: 'conflit', status: 409 });
    const none = await originalEInvoice(buyer, {
      document: 'debit-notes',
      id: '0190a000-0000-7000-8000-000000000000',
    }).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'introuvable', status: 404 });
  });

  it('a tampered file is an EInvoiceError with the failed rules, typed', async () => {
    const ubl = text(files.ubl.bytes)
      .replace(`<cbc:ID>${invoice.number}</cbc:ID>`, `<cbc:ID>${invoice.number}-T</cbc:ID>`)
      .replace(
        /(<cbc:TaxInclusiveAmount currencyID="EUR">)([\d.]+)/,
        (_, open, amount: string) => `${open}${(Number(amount) + 10).toFixed(2)}`,
      );
    expect(ubl).toContain('-T</cbc:ID>');
    try {
      await importEInvoice(buyer, new Blob([ubl], { type: 'application/xml' }));
      expect.unreachable('the tampered file was imported');
    } catch (error) {
      if (!(error instanceof EInvoiceError)) throw error;
      expect(error.code).toBe('facture_electronique_invalide');
      const ids = error.params.rules.map((rule) => rule.id);
      expect(ids).toEqual(expect.arrayContaining(['BR-CO-15']));
      expect(error.params.rules[0]!.text).toMatch(/^\[BR-/);
      expect(error.message).toContain('BR-CO-15');
    }
  });
});
