import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ciiSchemaErrors,
  readFacturX,
  readInvoice,
  rulesDirectory,
  validator,
} from '@erp/einvoicing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COMPANY } from '../../seed/demo-records';
import { booksTenant, line } from '../../test/books-harness';
import { apiKey, createTestPortal } from '../../test/harness';
import { frenchEuros } from './document';

let portal: Awaited<ReturnType<typeof createTestPortal>>;
let books: Awaited<ReturnType<typeof booksTenant>>;

/** The raw answer of a route (a file), with its headers. */
async function raw(
  who: typeof books,
  method: string,
  url: string,
  body?: Uint8Array | string,
  type?: string,
) {
  const res = await portal.request(`/api/v1/${url}`, {
    method,
    headers: { ...who.admin, ...(type ? { 'content-type': type } : {}) },
    body: body as never,
  });
  return {
    status: res.status,
    headers: res.headers,
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const json = (bytes: Uint8Array) => JSON.parse(text(bytes));

/** A tax with its rate since 2014, as an accountant declares it. */
async function tax(
  who: typeof books,
  code: string,
  scope: string,
  rate: string,
  vat: Record<string, string> = {},
) {
  const created = await who.create('taxes', {
    code,
    name: `${code} ${rate} %`,
    scope,
    tax_kind: 'vat',
    account_id: scope === 'sales' ? who.accounts.vat_collected.id : who.accounts.vat_deductible.id,
    ...vat,
  });
  await who.create('tax-rates', {
    tax_id: created.id,
    name: `${rate} %`,
    rate,
    valid_from: '2014-01-01',
  });
  return created;
}

let taxes: Record<string, { id: string }>;
let french: { id: string };
let german: { id: string };

beforeAll(async () => {
  portal = await createTestPortal();
  books = await booksTenant(portal);
  const saved = await books.call('PUT', 'settings/company', DEMO_COMPANY);
  expect(saved.status).toBe(200);
  taxes = {
    s20: await tax(books, 'TVA-C20', 'sales', '20', { vat_category: 'S' }),
    s55: await tax(books, 'TVA-C55', 'sales', '5.5', { vat_category: 'S' }),
    exempt: await tax(books, 'TVA-E261', 'sales', '0', {
      vat_category: 'E',
      vat_exemption_reason_code: 'VATEX-FR-CGI261-4',
      vat_exemption_reason: 'Exonération de TVA, article 261-4-4° du CGI',
    }),
    reverse: await tax(books, 'TVA-AE', 'sales', '0', {
      vat_category: 'AE',
      vat_exemption_reason: 'Autoliquidation, article 283-2 du CGI',
    }),
    intra: await tax(books, 'TVA-IC', 'sales', '0', { vat_category: 'K' }),
  };
  french = await books.create('customers', {
    name: 'Martin & Fils <SA>',
    customer_type: 'company',
    active: true,
    vat_number: 'FR40303265045',
    registration_number: '30326504500018',
    street: '3 place Bellecour',
    postal_code: '69002',
    city: 'Lyon',
    country_code: 'FR',
    email: 'compta@martin.example',
  });
  german = await books.create('customers', {
    name: 'Schmidt GmbH',
    customer_type: 'company',
    active: true,
    vat_number: 'DE123456789',
    street: 'Hauptstraße 5',
    postal_code: '10115',
    city: 'Berlin',
    country_code: 'DE',
  });
}, 60_000);
afterAll(async () => {
  await portal.tdb.close();
});

async function issued(path: 'invoices' | 'credit-notes', body: Record<string, unknown>) {
  const draft = await books.create(path, body);
  const done = await books.call('POST', `${path}/${draft.id}/issue`);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body as Record<string, unknown> & {
    id: string;
    number: string;
    subtotal_cents: number;
    tax_cents: number;
    total_cents: number;
  };
}

const invoiceOf = (customer: { id: string }, lines: unknown[], extra = {}) =>
  issued('invoices', {
    customer_id: customer.id,
    invoice_date: '2026-03-10',
    due_date: '2026-04-09',
    currency: 'EUR',
    lines,
    ...extra,
  });

/**
 * The three formats of a document, each checked by the official rules (0 fatal), the CII also
 * by its schema, the Factur-X by its structure; what each says of the totals.
 */
async function allFormats(path: 'invoices' | 'credit-notes', id: string) {
  const out: Record<string, { xml: string; fatal: string[] }> = {};
  for (const format of ['ubl', 'cii', 'facturx'] as const) {
    const res = await raw(books, 'GET', `${path}/${id}/einvoice?format=${format}`);
    expect(res.status, text(res.bytes)).toBe(200);
    let xml: string;
    if (format === 'facturx') {
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const read = await readFacturX(res.bytes);
      expect(read.problems).toEqual([]);
      expect(read.name).toBe('factur-x.xml');
      xml = read.xml;
    } else {
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      xml = text(res.bytes);
    }
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    if (format !== 'ubl') expect(await ciiSchemaErrors(xml)).toEqual([]);
    const report = await validator.validate(xml);
    expect(report.fired).toBeGreaterThan(50);
    out[format] = { xml, fatal: report.fatal.map((f) => `${f.id}: ${f.text}`) };
    expect(out[format].fatal, `${format}`).toEqual([]);
  }
  return out;
}

function expectTotals(
  xml: string,
  doc: { subtotal_cents: number; tax_cents: number; total_cents: number },
) {
  const read = readInvoice(xml);
  expect({
    subtotal: Number(read.totals.taxExclusiveCents),
    tax: Number(read.totals.taxCents),
    total: Number(read.totals.taxInclusiveCents),
    payable: Number(read.totals.payableCents),
  }).toEqual({
    subtotal: doc.subtotal_cents,
    tax: doc.tax_cents,
    total: doc.total_cents,
    payable: doc.total_cents,
  });
  return read;
}

describe('issued documents as e-invoices, valid by the official EN 16931 rules (SPEC §20)', () => {
  let domestic: Awaited<ReturnType<typeof invoiceOf>>;
  let formats: Awaited<ReturnType<typeof allFormats>>;

  it('several VAT rates, an exempt line with its reason and a discount line: 0 fatal in UBL, CII and Factur-X; the totals are the invoice’s', async () => {
    domestic = await invoiceOf(
      french,
      [
        line('3', 105, '5.5', { tax_id: taxes.s55!.id, description: 'Café moulu 250 g' }),
        line('2', 14_900, '20', {
          tax_id: taxes.s20!.id,
          description: 'Chaise de bureau',
          unit_of_measure: 'Unit',
        }),
        line('1.5', 8_000, '0', {
          tax_id: taxes.exempt!.id,
          description: 'Formation (heures)',
          unit_of_measure: 'h',
        }),
        line('1', -1_000, '20', { tax_id: taxes.s20!.id, description: 'Remise fidélité' }),
      ],
      { customer_reference: 'PO-7781', notes: 'Livraison au 2e étage.' },
    );
    expect(domestic).toMatchObject({
      subtotal_cents: 41_115,
      tax_cents: 5_777,
      total_cents: 46_892,
    });
    formats = await allFormats('invoices', domestic.id);
    for (const { xml } of Object.values(formats)) {
      const read = expectTotals(xml, domestic);
      expect(
        read.vat.map((v) => [v.category, v.rate, Number(v.baseCents), Number(v.taxCents)]),
      ).toEqual([
        ['S', '5.5', 315, 17],
        ['S', '20', 28_800, 5_760],
        ['E', '0', 12_000, 0],
      ]);
      expect(read.vat[2]!.exemption).toEqual({
        code: 'VATEX-FR-CGI261-4',
        text: 'Exonération de TVA, article 261-4-4° du CGI',
      });
      expect(read.seller).toMatchObject({
        name: 'Demo SARL',
        vatId: 'FR19812345676',
        legalId: { value: '812345676', scheme: '0002' },
      });
      expect(read.buyer).toMatchObject({ name: 'Martin & Fils <SA>', vatId: 'FR40303265045' });
      expect(read.payment).toMatchObject({ meansCode: '58', iban: 'FR7630006000011234567890189' });
      expect(read.buyerReference).toBe('PO-7781');
      expect(read.dueDate).toBe('2026-04-09');
      // The discount: a negative quantity at a positive price (BR-27).
      expect(read.lines[3]).toMatchObject({
        quantity: '-1',
        priceCents: 1_000n,
        netCents: -1_000n,
      });
    }
  });

  it('a reverse-charge customer (AE) with its reason, and an intra-community supply (K) with its delivery', async () => {
    const reverse = await invoiceOf(german, [
      line('10', 2_500, '0', { tax_id: taxes.reverse!.id, description: 'Conseil (jours)' }),
    ]);
    const intra = await invoiceOf(german, [
      line('4', 9_990, '0', { tax_id: taxes.intra!.id, description: 'Lampe de bureau' }),
    ]);
    for (const [doc, category, code] of [
      [reverse, 'AE', 'VATEX-EU-AE'],
      [intra, 'K', 'VATEX-EU-IC'],
    ] as const) {
      const out = await allFormats('invoices', doc.id);
      for (const { xml } of Object.values(out)) {
        const read = expectTotals(xml, doc);
        expect(read.vat).toHaveLength(1);
        expect(read.vat[0]).toMatchObject({ category, rate: '0', taxCents: 0n });
        expect(read.vat[0]!.exemption?.code).toBe(code);
        expect(read.buyer.vatId).toBe('DE123456789');
      }
    }
  });

  it('a credit note on the invoice: type 381, the invoice it corrects, valid and with its own totals', async () => {
    const made = await books.call('POST', `invoices/${domestic.id}/make-credit-note`, {
      lines: [{ line_id: (domestic.lines as { id: string }[])[1]!.id, quantity: '1' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const done = await books.call('POST', `credit-notes/${made.body.id}/issue`);
    expect(done.status).toBe(200);
    const note = done.body;
    const out = await allFormats('credit-notes', note.id);
    for (const { xml } of Object.values(out)) {
      const read = expectTotals(xml, note);
      expect(read.typeCode).toBe('381');
      expect(read.precedingInvoice).toEqual({ number: domestic.number, issueDate: '2026-03-10' });
    }
    expect(out.ubl!.xml).toContain('<CreditNote ');
  });

  it('a foreign-currency invoice: its amounts in USD, its VAT also in the company currency (BT-6, BT-111)', async () => {
    const usd = await invoiceOf(
      french,
      [line('7', 12_345, '20', { tax_id: taxes.s20!.id, description: 'Licence annuelle' })],
      { currency: 'USD', exchange_rate: '0.9' },
    );
    const out = await allFormats('invoices', usd.id);
    for (const { xml } of Object.values(out)) {
      const read = expectTotals(xml, usd);
      expect(read.currency).toBe('USD');
    }
    // 17 283 cents of VAT at 0.9 € per $: 15 555 cents (half away from zero, once).
    expect(out.ubl!.xml).toContain('<cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>');
    expect(out.ubl!.xml).toContain('<cbc:TaxAmount currencyID="EUR">155.55</cbc:TaxAmount>');
    expect(out.cii!.xml).toContain(
      '<ram:TaxTotalAmount currencyID="EUR">155.55</ram:TaxTotalAmount>',
    );
  });

  it('text the user typed is escaped, never markup: the buyer’s name with & and < reads back as typed', () => {
    expect(formats.ubl!.xml).toContain('Martin &amp; Fils &lt;SA&gt;');
    expect(formats.cii!.xml).toContain('Martin &amp; Fils &lt;SA&gt;');
  });

  it('the seller’s legal mentions (BT-33) in exact French figures', () => {
    expect(frenchEuros(5_000_000n)).toBe('50 000');
    expect(frenchEuros(7_500_050n)).toBe('75 000,50');
    expect(frenchEuros(123_456_789_01n)).toBe('123 456 789,01');
    expect(formats.ubl!.xml).toContain(
      '<cbc:CompanyLegalForm>SARL au capital de 50 000 € RCS Lyon 812345676</cbc:CompanyLegalForm>',
    );
  });

  it('a draft is 409 transition_invalide, another tenant’s invoice 404, an unknown format 400', async () => {
    const draft = await books.create('invoices', {
      customer_id: french.id,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('1', 100, '20', { tax_id: taxes.s20!.id })],
    });
    const refused = await raw(books, 'GET', `invoices/${draft.id}/einvoice?format=ubl`);
    expect(refused.status).toBe(409);
    expect(json(refused.bytes)).toMatchObject({
      code: 'transition_invalide',
      params: { from: 'brouillon' },
    });
    const other = await booksTenant(portal);
    const foreign = await raw(other, 'GET', `invoices/${domestic.id}/einvoice`);
    expect(foreign.status).toBe(404);
    expect(json(foreign.bytes).code).toBe('introuvable');
    const bad = await raw(books, 'GET', `invoices/${domestic.id}/einvoice?format=pdf`);
    expect(bad.status).toBe(400);
    expect(json(bad.bytes).code).toBe('requete_invalide');
  });

  it('what the rules need and the settings lack is named before anything is written: BR-06, BR-09, BR-S-02, BR-11', async () => {
    const other = await booksTenant(portal);
    const customer = await other.create('customers', {
      name: 'Sans pays',
      customer_type: 'company',
      active: true,
    });
    const draft = await other.create('invoices', {
      customer_id: customer.id,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
      currency: 'EUR',
      lines: [line('1', 100, '20')],
    });
    await other.call('POST', `invoices/${draft.id}/issue`);
    const refused = await raw(other, 'GET', `invoices/${draft.id}/einvoice`);
    expect(refused.status).toBe(422);
    const body = json(refused.bytes);
    expect(body.code).toBe('facture_electronique_invalide');
    expect(body.params.rules.map((r: { id: string }) => r.id)).toEqual([
      'BR-06',
      'BR-09',
      'BR-S-02',
      'BR-11',
    ]);
  });
});

describe('Settings → Company', () => {
  it('reads what was saved; a wrong SIREN key, SIRET, VAT key or IBAN is 400 with the field; an API key cannot write it', async () => {
    const read = await books.call('GET', 'settings/company');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      legal_name: 'Demo SARL',
      siren: '812345676',
      share_capital_cents: 5_000_000,
    });
    for (const [field, value] of [
      ['siren', '812345674'],
      ['siret', '81234567600018'],
      ['iban', 'FR7630006000011234567890188'],
      ['vat_number', 'FR20812345676'],
      ['country_code', 'fr'],
      ['bic', 'AGRI'],
    ] as const) {
      const res = await books.call('PUT', 'settings/company', { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(JSON.stringify(res.body.params.issues)).toContain(field);
    }
    // A SIRET of another SIREN than the one stored.
    const mismatch = await books.call('PUT', 'settings/company', { siret: '30326504500018' });
    expect(mismatch.status).toBe(400);
    expect((await books.call('GET', 'settings/company')).body.siret).toBe('81234567600017');
    const cleared = await books.call('PUT', 'settings/company', { phone: null });
    expect(cleared.body).toMatchObject({ phone: null, legal_name: 'Demo SARL' });
  });
});

const examples = path.join(rulesDirectory(), 'examples');
const example = (name: string) => readFileSync(path.join(examples, name));

describe('supplier e-invoices imported (SPEC §20)', () => {
  let buyer: Awaited<ReturnType<typeof booksTenant>>;
  const post = (body: Uint8Array | string, type = 'application/xml') =>
    raw(buyer, 'POST', 'supplier-invoices/import', body, type);
  const supplier = (name: string, vat_number: string) =>
    buyer.create('suppliers', { name, vat_number });

  beforeAll(async () => {
    buyer = await booksTenant(portal);
    await tax(buyer, 'TVA-D20', 'purchases', '20', { vat_category: 'S' });
    await tax(buyer, 'TVA-D55', 'purchases', '5.5', { vat_category: 'S' });
  }, 60_000);

  it('the official examples: an unknown seller is 422 naming it; once created, each becomes a draft with the document’s lines and totals', async () => {
    const unknown = await post(example('ubl-tc434-example1.xml'));
    expect(unknown.status).toBe(422);
    expect(json(unknown.bytes)).toMatchObject({
      code: 'facture_electronique_invalide',
      params: {
        supplier: { name: 'De Koksmaat', vat_number: 'NL8200.98.395.B.01', country_code: 'NL' },
      },
    });
    await supplier('De Koksmaat', 'NL820098395B01');
    await supplier('Seller (DE)', 'DE1111111');
    await supplier('My Supplier Company', 'BE0000000196');
    const cases = [
      ['ubl-tc434-example1.xml', 'supplier-invoices', 22_960, 2_073, 25_033, 20],
      ['CII_example1.xml', 'supplier-invoices', 22_960, 2_073, 25_033, 20],
      ['CII_business_example_02.xml', 'supplier-invoices', 1_000, 190, 1_190, 4],
      ['ubl-tc434-creditnote1.xml', 'debit-notes', 10_011, 0, 10_011, 1],
    ] as const;
    for (const [file, kind, subtotal, taxCents, total, count] of cases) {
      // The UBL and the CII example are the same invoice of the same seller: the second is a duplicate.
      if (file === 'CII_example1.xml') {
        const twice = await post(example(file));
        expect(twice.status, file).toBe(409);
        expect(json(twice.bytes).code).toBe('conflit');
        continue;
      }
      const res = await post(example(file));
      expect(res.status, `${file}: ${text(res.bytes)}`).toBe(201);
      const draft = json(res.bytes);
      expect(res.headers.get('location')).toBe(`/api/v1/${kind}/${draft.id}`);
      expect(draft).toMatchObject({
        status: 'brouillon',
        subtotal_cents: subtotal,
        tax_cents: taxCents,
        total_cents: total,
      });
      expect(draft.lines).toHaveLength(count);
      const original = await raw(buyer, 'GET', `${kind}/${draft.id}/einvoice`);
      expect(original.status).toBe(200);
      expect(Buffer.from(original.bytes).equals(example(file))).toBe(true);
    }
  });

  it('documents the product produced, in all three formats, import at the customer’s as the same totals; a second import is 409', async () => {
    await supplier('Demo SARL', 'FR19812345676');
    const invoice = await invoiceOf(french, [
      line('2', 14_900, '20', { tax_id: taxes.s20!.id, description: 'Chaise de bureau' }),
      line('3', 105, '5.5', { tax_id: taxes.s55!.id, description: 'Café' }),
    ]);
    const files = {
      ubl: await raw(books, 'GET', `invoices/${invoice.id}/einvoice?format=ubl`),
      cii: await raw(books, 'GET', `invoices/${invoice.id}/einvoice?format=cii`),
      facturx: await raw(books, 'GET', `invoices/${invoice.id}/einvoice?format=facturx`),
    };
    const first = await post(files.facturx.bytes, 'application/pdf');
    expect(first.status, text(first.bytes)).toBe(201);
    const draft = json(first.bytes);
    expect(draft).toMatchObject({
      supplier_invoice_number: invoice.number,
      subtotal_cents: invoice.subtotal_cents,
      tax_cents: invoice.tax_cents,
      total_cents: invoice.total_cents,
      invoice_date: '2026-03-10',
      due_date: '2026-04-09',
    });
    expect(draft.lines.map((l: { tax_id: string | null }) => l.tax_id).every(Boolean)).toBe(true);
    const kept = await raw(buyer, 'GET', `supplier-invoices/${draft.id}/einvoice`);
    expect(kept.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(kept.bytes).equals(Buffer.from(files.facturx.bytes))).toBe(true);
    for (const format of ['ubl', 'cii'] as const) {
      const again = await post(files[format].bytes);
      expect(again.status, format).toBe(409);
    }
    // Cancelled, the number may come again: the UBL imports.
    expect((await buyer.call('POST', `supplier-invoices/${draft.id}/cancel`)).status).toBe(200);
    const after = await post(files.ubl.bytes);
    expect(after.status, text(after.bytes)).toBe(201);
  });

  it('the same file imported by many at once: exactly one draft', async () => {
    const invoice = await invoiceOf(french, [line('1', 5_000, '20', { tax_id: taxes.s20!.id })]);
    const file = await raw(books, 'GET', `invoices/${invoice.id}/einvoice?format=cii`);
    const results = await Promise.all(Array.from({ length: 6 }, () => post(file.bytes)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const { rows } = await portal.tdb.pool.query(
      'SELECT count(*)::int AS n FROM supplier_invoices WHERE tenant_id = $1 AND supplier_invoice_number = $2',
      [buyer.tenant.id, invoice.number],
    );
    expect(rows[0].n).toBe(1);
  });

  it('a tampered document is refused with the failed rule ids, and nothing is written', async () => {
    const before = (await buyer.call('GET', 'supplier-invoices?page_size=200')).body.data.length;
    const ubl = example('ubl-tc434-example1.xml')
      .toString('utf8')
      .replace('<cbc:ID>12115118</cbc:ID>', '<cbc:ID>12115118-T</cbc:ID>')
      .replace(
        '<cbc:TaxInclusiveAmount currencyID="EUR">250.33',
        '<cbc:TaxInclusiveAmount currencyID="EUR">260.33',
      );
    const tampered = await post(ubl);
    expect(tampered.status).toBe(422);
    const body = json(tampered.bytes);
    expect(body.code).toBe('facture_electronique_invalide');
    const ids = body.params.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['BR-CO-15', 'BR-CO-16']));
    expect(body.params.rules[0].text).toMatch(/^\[BR-CO-1[56]\]/);
    const cii = example('CII_example1.xml')
      .toString('utf8')
      .replace('<ram:GrandTotalAmount>250.33', '<ram:GrandTotalAmount>260.33');
    const ciiRefused = await post(cii);
    expect(ciiRefused.status).toBe(422);
    expect(json(ciiRefused.bytes).params.rules.map((r: { id: string }) => r.id)).toContain(
      'BR-CO-15',
    );
    const unknownElement = example('CII_example1.xml')
      .toString('utf8')
      .replace(
        '<ram:ApplicableHeaderTradeAgreement>',
        '<ram:ApplicableHeaderTradeAgreement><ram:Surprise>x</ram:Surprise>',
      );
    expect(unknownElement).toContain('<ram:Surprise>');
    const xsd = await post(unknownElement);
    expect(xsd.status).toBe(422);
    expect(json(xsd.bytes).params.rules[0].id).toBe('CII-XSD');
    expect((await buyer.call('GET', 'supplier-invoices?page_size=200')).body.data.length).toBe(
      before,
    );
  });

  it('what is not an e-invoice is 422 or 400, never a 500', async () => {
    const cases: [Uint8Array | string, string, number][] = [
      ['<html><body>no</body></html>', 'application/xml', 422],
      ['not xml at all', 'application/xml', 422],
      [
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&e;</Invoice>',
        'application/xml',
        422,
      ],
      [
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><unclosed></Invoice>',
        'application/xml',
        422,
      ],
      [new Uint8Array([0xff, 0xfe, 0x00, 0x41]), 'application/xml', 422],
      ['%PDF-1.7 garbage', 'application/pdf', 422],
      ['{}', 'application/json', 400],
      ['', 'application/xml', 400],
    ];
    for (const [body, type, status] of cases) {
      const res = await post(body, type);
      expect(res.status, `${type} ${String(body).slice(0, 30)}`).toBe(status);
      expect(json(res.bytes).code).toMatch(/facture_electronique_invalide|requete_invalide/);
    }
  });

  it('needs accounting:write; the original of a typed-in supplier invoice is 404', async () => {
    const typed = await buyer.create('supplier-invoices', {
      supplier_id: buyer.supplier.id,
      supplier_invoice_number: 'F-1',
      invoice_date: '2026-03-01',
      due_date: '2026-03-31',
      currency: 'EUR',
      lines: [line('1', 100, '20')],
    });
    const none = await raw(buyer, 'GET', `supplier-invoices/${typed.id}/einvoice`);
    expect(none.status).toBe(404);
    const key = await buyer.call('POST', 'settings/api-keys', {
      name: 'read only',
      scopes: ['accounting:read'],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const res = await portal.request('/api/v1/supplier-invoices/import', {
      method: 'POST',
      headers: { ...apiKey(key.body.key, buyer.tenant.id), 'content-type': 'application/xml' },
      body: example('ubl-tc434-example1.xml'),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('acces_refuse');
  });
});
