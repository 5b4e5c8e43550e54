import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FacturXError, facturxPdf, readFacturX } from './facturx';
import type { EInvoice, Line } from './model';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ciiBytes = readFileSync(join(root, 'rules/examples/CII_example1.xml'));
const cii = ciiBytes.toString('utf8');
const createdAt = new Date('2025-03-14T10:00:00Z');

function fixture(): EInvoice {
  return {
    typeCode: '380',
    number: 'FA-2025-0042',
    issueDate: '2025-03-14',
    dueDate: '2025-04-13',
    currency: 'EUR',
    buyerReference: 'SERVICE-ACHATS-12',
    orderReference: 'PO-98765',
    notes: [
      {
        subject: 'PMD',
        text: 'En cas de retard de paiement, une pénalité égale à trois fois le taux d’intérêt légal sera exigible, ainsi qu’une indemnité forfaitaire de 40 € pour frais de recouvrement.',
      },
      { subject: 'AAB', text: 'Pas d’escompte pour paiement anticipé.' },
    ],
    seller: {
      name: 'Atelier Dupont SARL',
      tradingName: 'Atelier Dupont',
      id: { value: '73282932000074', scheme: '0009' },
      legalId: { value: '732829320', scheme: '0002' },
      vatId: 'FR44732829320',
      legalInfo: 'SARL au capital de 10 000 € – RCS Lyon 732 829 320',
      email: 'factures@atelier-dupont.fr',
      address: {
        line1: '12 rue de la République',
        city: 'Lyon',
        postalCode: '69002',
        country: 'FR',
      },
    },
    buyer: {
      name: 'Société Générale des Éditions Martin SAS',
      legalId: { value: '552100554', scheme: '0002' },
      vatId: 'FR32552100554',
      address: {
        line1: '4 avenue des Champs',
        line2: 'Bâtiment B, 3e étage',
        city: 'Paris',
        postalCode: '75008',
        country: 'FR',
      },
    },
    payment: {
      meansCode: '58',
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPPXXX',
      reference: 'FA-2025-0042',
    },
    paymentTerms: 'Paiement à 30 jours',
    lines: [
      {
        id: '1',
        name: 'Conseil en organisation',
        description:
          'Accompagnement de l’équipe comptable pour la mise en place de la facturation électronique : ateliers, paramétrage du logiciel, reprise des données clients et formation des utilisateurs.',
        sellerItemId: 'CONS-H',
        quantity: '10',
        unitCode: 'HUR',
        priceCents: 8500n,
        netCents: 85000n,
        vat: { category: 'S', rate: '20' },
      },
      {
        id: '2',
        name: 'Livres « Comptabilité pratique »',
        quantity: '4',
        unitCode: 'H87',
        priceCents: 2500n,
        netCents: 10000n,
        vat: { category: 'S', rate: '5.5' },
      },
      {
        id: '3',
        name: 'Formation professionnelle continue',
        description: 'Session d’une journée, organisme de formation déclaré.',
        quantity: '1',
        unitCode: 'DAY',
        priceCents: 40000n,
        netCents: 40000n,
        vat: { category: 'E', rate: '0' },
      },
    ],
    vat: [
      { category: 'S', rate: '20', baseCents: 85000n, taxCents: 17000n },
      { category: 'S', rate: '5.5', baseCents: 10000n, taxCents: 550n },
      {
        category: 'E',
        rate: '0',
        baseCents: 40000n,
        taxCents: 0n,
        exemption: {
          code: 'VATEX-FR-261-4-4',
          text: 'Exonération de TVA, article 261-4-4° du CGI (formation professionnelle continue)',
        },
      },
    ],
    totals: {
      lineNetCents: 135000n,
      taxExclusiveCents: 135000n,
      taxCents: 17550n,
      taxInclusiveCents: 152550n,
      prepaidCents: 0n,
      payableCents: 152550n,
    },
  };
}

/** Every font dictionary of the PDF: embedded (FontFile2, or a Type0 with such a descendant). */
function fontsOf(pdf: PDFDocument): { name: string; embedded: boolean }[] {
  const fonts: { name: string; embedded: boolean }[] = [];
  const hasFile = (font: PDFDict) => {
    const descriptor = font.lookup(PDFName.of('FontDescriptor'));
    return descriptor instanceof PDFDict && descriptor.get(PDFName.of('FontFile2')) !== undefined;
  };
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || String(object.get(PDFName.of('Type'))) !== '/Font')
      continue;
    const name = String(object.get(PDFName.of('BaseFont')));
    if (String(object.get(PDFName.of('Subtype'))) === '/Type0') {
      const descendants = object.lookup(PDFName.of('DescendantFonts'), PDFArray);
      const all = descendants.asArray().map((entry) => pdf.context.lookup(entry, PDFDict));
      fonts.push({ name, embedded: all.length > 0 && all.every(hasFile) });
    } else {
      fonts.push({ name, embedded: hasFile(object) });
    }
  }
  return fonts;
}

describe('facturxPdf', () => {
  it('makes a Factur-X PDF whose XML reads back byte for byte, with no problem', async () => {
    const bytes = await facturxPdf(fixture(), cii, { createdAt });
    mkdirSync(join(root, 'test-output'), { recursive: true });
    writeFileSync(join(root, 'test-output/facturx-example.pdf'), bytes);

    expect(Buffer.from(bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
    const read = await readFacturX(bytes);
    expect(read.problems).toEqual([]);
    expect(read.name).toBe('factur-x.xml');
    expect(Buffer.from(read.xml, 'utf8').equals(ciiBytes)).toBe(true);

    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe('Invoice FA-2025-0042');
    const fonts = fontsOf(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font, font.name).toMatchObject({ embedded: true });
    expect(fonts.some((font) => /Helvetica/i.test(font.name))).toBe(false);
    expect(Buffer.from(bytes).includes('Helvetica')).toBe(false);
  });

  it('is deterministic for a given creation date', async () => {
    const one = await facturxPdf(fixture(), cii, { createdAt });
    const two = await facturxPdf(fixture(), cii, { createdAt });
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(true);
  });

  it('renders a credit note', async () => {
    const credit: EInvoice = {
      ...fixture(),
      typeCode: '381',
      number: 'AV-2025-0003',
      precedingInvoice: { number: 'FA-2025-0042', issueDate: '2025-03-14' },
    };
    const bytes = await facturxPdf(credit, cii, { createdAt });
    const read = await readFacturX(bytes);
    expect(read.problems).toEqual([]);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getTitle()).toBe('Credit note AV-2025-0003');
  });

  it('gives no title when the number has characters the XMP would need escaped', async () => {
    const bytes = await facturxPdf({ ...fixture(), number: 'A<&>"1' }, cii, { createdAt });
    const read = await readFacturX(bytes);
    expect(read.problems).toEqual([]);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getTitle()).toBeUndefined();
  });

  it('continues a long table on several pages', async () => {
    const invoice = fixture();
    const lines: Line[] = Array.from({ length: 60 }, (_, i) => ({
      id: String(i + 1),
      name: `Article ${i + 1}`,
      description:
        i % 3 === 0
          ? 'Une description assez longue pour occuper deux ou trois lignes dans la colonne de la désignation du tableau des lignes.'
          : undefined,
      quantity: '2',
      unitCode: 'C62',
      priceCents: 1000n,
      netCents: 2000n,
      vat: { category: 'S', rate: '20' },
    }));
    invoice.lines = lines;
    invoice.vat = [{ category: 'S', rate: '20', baseCents: 120000n, taxCents: 24000n }];
    invoice.totals = {
      lineNetCents: 120000n,
      taxExclusiveCents: 120000n,
      taxCents: 24000n,
      taxInclusiveCents: 144000n,
      prepaidCents: 0n,
      payableCents: 144000n,
    };
    const bytes = await facturxPdf(invoice, cii, { createdAt });
    mkdirSync(join(root, 'test-output'), { recursive: true });
    writeFileSync(join(root, 'test-output/facturx-long.pdf'), bytes);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBeGreaterThan(1);
    expect((await readFacturX(bytes)).problems).toEqual([]);
  });
});

describe('readFacturX', () => {
  it('refuses a PDF with no invoice XML attached', async () => {
    const plain = await PDFDocument.create();
    plain.addPage();
    const bytes = await plain.save();
    await expect(readFacturX(bytes)).rejects.toBeInstanceOf(FacturXError);
    await expect(readFacturX(bytes)).rejects.toThrow(/factur-x\.xml/);
  });

  it('refuses a PDF whose only attachment is something else', async () => {
    const plain = await PDFDocument.create();
    plain.addPage();
    await plain.attach(Buffer.from('hello'), 'notes.txt', { mimeType: 'text/plain' });
    await expect(readFacturX(await plain.save())).rejects.toThrow(/attached: notes\.txt/);
  });

  it('refuses bytes that are not a PDF', async () => {
    const random = new Uint8Array(4096);
    for (let i = 0; i < random.length; i++) random[i] = (i * 7919 + 13) % 251;
    await expect(readFacturX(random)).rejects.toBeInstanceOf(FacturXError);
    await expect(readFacturX(new Uint8Array())).rejects.toBeInstanceOf(FacturXError);
  });

  it('lists the structural problems of an attachment that is not Factur-X', async () => {
    const plain = await PDFDocument.create();
    plain.addPage();
    await plain.attach(ciiBytes, 'zugferd-invoice.xml', { mimeType: 'text/xml' });
    const read = await readFacturX(await plain.save());
    expect(read.name).toBe('zugferd-invoice.xml');
    expect(Buffer.from(read.xml, 'utf8').equals(ciiBytes)).toBe(true);
    expect(read.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/AFRelationship/),
        expect.stringMatching(/Metadata/),
        expect.stringMatching(/GTS_PDFA1/),
      ]),
    );
  });
});
