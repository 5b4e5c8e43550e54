/**
 * Generated documents (any lines, quantities, prices, discounts, VAT categories and rates of
 * the books, currencies, invoices and credit notes) written as UBL and CII: every one passes the
 * official EN 16931 rules with no fatal failure, the CII its schema, and reads back with the
 * books' totals (`documentTotals`) and a breakdown that adds up to them.
 */
import { documentTotals } from '@erp/contract/amounts';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEInvoice, type DocumentLine, type DocumentTax } from './build';
import { toCii } from './cii';
import type { Party } from './model';
import { readInvoice } from './read';
import { toUbl } from './ubl';
import { validator } from './validate';
import { ciiSchemaErrors } from './xsd';

afterAll(() => validator.close());

const TAXES: Record<string, DocumentTax & { rate: string }> = {
  s20: { category: 'S', rate: '20' },
  s10: { category: 'S', rate: '10' },
  s55: { category: 'S', rate: '5.5' },
  s21: { category: 'S', rate: '2.1' },
  z: { category: 'Z', rate: '0' },
  e: {
    category: 'E',
    rate: '0',
    code: 'VATEX-FR-CGI261-4',
    reason: 'Exonération, art. 261-4-4° du CGI',
  },
  ae: { category: 'AE', rate: '0', reason: 'Autoliquidation' },
  k: { category: 'K', rate: '0' },
  g: { category: 'G', rate: '0' },
  // A line typed without a tax: its category follows its rate.
  none20: { category: null, rate: '20' },
};

const seller: Party = {
  name: 'Demo SARL',
  id: { value: '81234567600017', scheme: '0009' },
  legalId: { value: '812345676', scheme: '0002' },
  vatId: 'FR19812345676',
  address: { line1: '14 rue de la République', city: 'Lyon', postalCode: '69002', country: 'FR' },
};
const buyer: Party = {
  name: 'Schmidt & Söhne <GmbH>',
  vatId: 'DE123456789',
  address: { line1: 'Hauptstraße 5', city: 'Berlin', postalCode: '10115', country: 'DE' },
};

const quantity = fc
  .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 999 }))
  .map(([whole, millis]) => `${whole}.${String(millis).padStart(3, '0')}`);

const line: fc.Arbitrary<DocumentLine> = fc.record({
  // Any text a user may type, controls and lone surrogates included: written as XML can carry it.
  description: fc
    .string({ unit: 'binary', minLength: 1, maxLength: 40 })
    .filter((s) => s.trim().length > 0),
  quantity,
  unit_of_measure: fc.constantFrom('Unit', 'h', 'kg', null),
  unit_price_cents: fc.integer({ min: 1, max: 2_000_000 }),
  tax_id: fc.constantFrom(...Object.keys(TAXES)),
  tax_rate: fc.constant(''),
  sku: fc.option(fc.constantFrom('CH-01', 'LAMP-2', 'SRV-9'), { nil: null }),
});

const document = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 8 }),
    discount: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: null }),
    credit: fc.boolean(),
    foreign: fc.boolean(),
  })
  .map(({ lines, discount, credit, foreign }) => {
    const all = lines.map((l) => ({ ...l, tax_rate: TAXES[l.tax_id!]!.rate }));
    // A discount line, at the first line's tax (a negative price, as the API takes it).
    if (discount)
      all.push({ ...all[0]!, description: 'Remise', quantity: '1', unit_price_cents: -discount });
    return { lines: all, credit, foreign };
  })
  .filter(({ lines }) => documentTotals(lines).subtotal_cents > 0);

describe('generated documents against the official rules', () => {
  it('every UBL and CII passes with 0 fatal, and reads back with the books’ totals', async () => {
    await fc.assert(
      fc.asyncProperty(document, async ({ lines, credit, foreign }) => {
        const totals = documentTotals(lines);
        const model = buildEInvoice({
          typeCode: credit ? '381' : '380',
          number: credit ? 'CN-2026-00007' : 'INV-2026-00042',
          issueDate: '2026-03-10',
          dueDate: '2026-04-09',
          currency: foreign ? 'USD' : 'EUR',
          companyCurrency: 'EUR',
          exchangeRate: foreign ? '0.9213' : null,
          lines,
          taxes: Object.fromEntries(
            Object.entries(TAXES).map(([id, t]) => [
              id,
              { category: t.category, code: t.code ?? null, reason: t.reason ?? null },
            ]),
          ),
          seller,
          buyer,
          totals: {
            subtotal_cents: totals.subtotal_cents,
            tax_cents: totals.tax_cents,
            total_cents: totals.total_cents,
          },
          rest: {
            payment: { meansCode: '58', iban: 'FR7630006000011234567890189' },
            ...(credit
              ? { precedingInvoice: { number: 'INV-2026-00041', issueDate: '2026-03-01' } }
              : {}),
          },
        });
        const breakdown = model.vat.reduce((sum, v) => sum + v.baseCents, 0n);
        expect(breakdown).toBe(BigInt(totals.subtotal_cents));
        for (const xml of [toUbl(model), toCii(model)]) {
          const report = await validator.validate(xml);
          expect(report.fatal.map((f) => `${f.id}: ${f.text}`)).toEqual([]);
          if (report.syntax === 'cii') expect(await ciiSchemaErrors(xml)).toEqual([]);
          const read = readInvoice(xml);
          expect([
            read.totals.taxExclusiveCents,
            read.totals.taxCents,
            read.totals.taxInclusiveCents,
          ]).toEqual([
            BigInt(totals.subtotal_cents),
            BigInt(totals.tax_cents),
            BigInt(totals.total_cents),
          ]);
          expect(read.lines.reduce((sum, l) => sum + l.netCents, 0n)).toBe(
            BigInt(totals.subtotal_cents),
          );
          expect(read.buyer.name).toBe(buyer.name);
        }
      }),
      { numRuns: 30 },
    );
    // About 15 s alone (60 documents through the rules, 30 through the XSD); CI runs it beside
    // every other suite on two cores.
  }, 400_000);

  it('the property can fail: a total changed after the fact fires BR-CO-15', async () => {
    const lines = [
      {
        description: 'Chaise',
        quantity: '2',
        unit_price_cents: 14_900,
        tax_rate: '20',
        tax_id: 's20',
      },
    ];
    const model = buildEInvoice({
      typeCode: '380',
      number: 'INV-1',
      issueDate: '2026-03-10',
      dueDate: '2026-04-09',
      currency: 'EUR',
      companyCurrency: 'EUR',
      lines,
      taxes: { s20: { category: 'S' } },
      seller,
      buyer,
    });
    model.totals.taxInclusiveCents += 1n;
    model.totals.payableCents += 1n;
    const ids = (await validator.validate(toCii(model))).fatal.map((f) => f.id);
    expect(ids).toContain('BR-CO-15');
  });
});
