/// <reference path="./fontkit.d.ts" />
/**
 * Factur-X (EN 16931 profile): a PDF/A-3b a person reads, with the CII of the same invoice
 * attached as `factur-x.xml` (`facturxPdf`), and the way back (`readFacturX`): the attached XML
 * of a Factur-X / ZUGFeRD / XRechnung PDF with the structural problems found on the way.
 *
 * The page is drawn with pdfkit in embedded DejaVu Sans only (PDF/A forbids a font that is not
 * embedded, so pdfkit's default Helvetica is never opened); the XMP carries the Factur-X
 * properties and their PDF/A extension schema as the Factur-X 1.0 specification gives them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create as createFont } from 'fontkit';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  PDFDocument as PdfLibDocument,
} from 'pdf-lib';
import PDFDocument from 'pdfkit';
import {
  type Address,
  amount,
  type EInvoice,
  type Line,
  type Party,
  unitName,
  VAT_CATEGORY_NAMES,
} from './model';

/** A PDF that is not a Factur-X one (no attached invoice XML), or not a PDF at all. */
export class FacturXError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FacturXError';
  }
}

/** The names an attached invoice XML goes by (Factur-X, ZUGFeRD 2, XRechnung). */
const XML_NAMES = /^(factur-x|zugferd-invoice|xrechnung)\.xml$/i;
const FX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
const FILE_NAME = 'factur-x.xml';

// ---------------------------------------------------------------------------------------------
// Fonts: read once, kept for every document.

/** A font parsed by fontkit, which pdfkit takes as it is (it parses a buffer again every time). */
type ParsedFont = ReturnType<typeof createFont>;
let fonts: { regular: ParsedFont; bold: ParsedFont } | undefined;

/**
 * DejaVu Sans, parsed once for every document: parsing its tables was nine tenths of a
 * document's time (about 250 ms) when each document parsed the files again.
 */
function dejaVu(): { regular: ParsedFont; bold: ParsedFont } {
  if (!fonts) {
    const root = dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
    const parse = (file: string) => createFont(readFileSync(join(root, 'ttf', file)));
    fonts = { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

// ---------------------------------------------------------------------------------------------
// The XMP: the Factur-X properties and the PDF/A extension schema that declares them.

const FACTURX_XMP = `
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
            <pdfaExtension:schemas>
                <rdf:Bag>
                    <rdf:li rdf:parseType="Resource">
                        <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                        <pdfaSchema:namespaceURI>${FX_NAMESPACE}</pdfaSchema:namespaceURI>
                        <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                        <pdfaSchema:property>
                            <rdf:Seq>
                                <rdf:li rdf:parseType="Resource">
                                    <pdfaProperty:name>DocumentFileName</pdfaProperty:name>
                                    <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                                    <pdfaProperty:category>external</pdfaProperty:category>
                                    <pdfaProperty:description>name of the embedded XML invoice file</pdfaProperty:description>
                                </rdf:li>
                                <rdf:li rdf:parseType="Resource">
                                    <pdfaProperty:name>DocumentType</pdfaProperty:name>
                                    <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                                    <pdfaProperty:category>external</pdfaProperty:category>
                                    <pdfaProperty:description>INVOICE</pdfaProperty:description>
                                </rdf:li>
                                <rdf:li rdf:parseType="Resource">
                                    <pdfaProperty:name>Version</pdfaProperty:name>
                                    <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                                    <pdfaProperty:category>external</pdfaProperty:category>
                                    <pdfaProperty:description>The actual version of the Factur-X XML schema</pdfaProperty:description>
                                </rdf:li>
                                <rdf:li rdf:parseType="Resource">
                                    <pdfaProperty:name>ConformanceLevel</pdfaProperty:name>
                                    <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                                    <pdfaProperty:category>external</pdfaProperty:category>
                                    <pdfaProperty:description>The conformance level of the embedded Factur-X data</pdfaProperty:description>
                                </rdf:li>
                            </rdf:Seq>
                        </pdfaSchema:property>
                    </rdf:li>
                </rdf:Bag>
            </pdfaExtension:schemas>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:fx="${FX_NAMESPACE}">
            <fx:DocumentType>INVOICE</fx:DocumentType>
            <fx:DocumentFileName>${FILE_NAME}</fx:DocumentFileName>
            <fx:Version>1.0</fx:Version>
            <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
`;

// ---------------------------------------------------------------------------------------------
// The readable page.

const MARGIN = 45;
const FOOTER = 24;
const INK = '#111111';
const MUTED = '#555555';
const RULE = '#c8c8c8';
const SHADE = '#ececec';

/** UNTDID 4461 payment means people meet on French invoices. */
const PAYMENT_MEANS: Record<string, string> = {
  '1': 'Not defined',
  '10': 'Cash',
  '20': 'Cheque',
  '30': 'Credit transfer',
  '31': 'Debit transfer',
  '42': 'Payment to bank account',
  '48': 'Bank card',
  '49': 'Direct debit',
  '57': 'Standing agreement',
  '58': 'SEPA credit transfer',
  '59': 'SEPA direct debit',
  '97': 'Clearing between partners',
};

/** UNTDID 4451 subjects of a note (BT-21). */
const NOTE_SUBJECTS: Record<string, string> = {
  AAB: 'Discounts',
  AAI: 'General information',
  ABL: 'Legal information',
  CUS: 'Customs',
  PMD: 'Penalties',
  PMT: 'Payment information',
  REG: 'Regulatory information',
  SUR: 'Remarks',
  TXD: 'Tax declaration',
};

type Doc = PDFKit.PDFDocument;
type Font = 'regular' | 'bold';

/** Draws text at (x, y) in a box `width` wide and returns its height. */
function put(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  style: {
    font?: Font;
    size?: number;
    color?: string;
    align?: 'left' | 'right';
    height?: number;
  } = {},
): number {
  doc
    .font(style.font ?? 'regular')
    .fontSize(style.size ?? 9)
    .fillColor(style.color ?? INK);
  const options: PDFKit.Mixins.TextOptions = { width, align: style.align ?? 'left', lineGap: 1 };
  if (style.height !== undefined) Object.assign(options, { height: style.height, ellipsis: true });
  const height = doc.heightOfString(text, options);
  doc.text(text, x, y, options);
  return style.height !== undefined ? Math.min(height, style.height) : height;
}

/** The height `text` takes in a box `width` wide. */
function measure(doc: Doc, text: string, width: number, font: Font = 'regular', size = 9): number {
  return doc.font(font).fontSize(size).heightOfString(text, { width, lineGap: 1 });
}

const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name (`FR` → France), or the code as given. */
function countryName(code: string): string {
  try {
    return regions.of(code.trim().toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

function addressLines(address: Address | undefined): string[] {
  if (!address) return [];
  const city = [address.postalCode, address.city].filter(Boolean).join(' ');
  const country = address.country ? countryName(address.country) : undefined;
  return [address.line1, address.line2, city, address.subdivision, country].filter(
    (part): part is string => Boolean(part?.trim()),
  );
}

function identifierLines(party: Party): string[] {
  const lines: string[] = [];
  if (party.legalId) {
    const label =
      party.legalId.scheme === '0002' || (!party.legalId.scheme && party.address.country === 'FR')
        ? 'SIREN'
        : `Registration${party.legalId.scheme ? ` (${party.legalId.scheme})` : ''}`;
    lines.push(`${label}: ${party.legalId.value}`);
  }
  if (party.id) {
    const label =
      party.id.scheme === '0009'
        ? 'SIRET'
        : `Identifier${party.id.scheme ? ` (${party.id.scheme})` : ''}`;
    lines.push(`${label}: ${party.id.value}`);
  }
  if (party.vatId) lines.push(`VAT number: ${party.vatId}`);
  return lines;
}

/** A party as blocks of text: its name in bold, then the rest. */
function partyText(party: Party): { name: string; rest: string } {
  const rest = [
    party.tradingName && party.tradingName !== party.name ? party.tradingName : undefined,
    ...addressLines(party.address),
    ...identifierLines(party),
    party.legalInfo,
    party.email,
  ].filter((part): part is string => Boolean(part?.trim()));
  return { name: party.name, rest: rest.join('\n') };
}

function rateText(line: { category: string; rate: string }): string {
  return line.category === 'S' ? `${line.rate} %` : `${line.rate} % ${line.category}`;
}

function ibanText(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .replace(/(.{4})/g, '$1 ')
    .trim();
}

function quantityText(line: Line): string {
  const unit = unitName(line.unitCode);
  return `${line.quantity} ${unit === 'Unit' ? 'unit' : unit}`;
}

/** A title pdfkit may copy into the XMP unescaped: safe characters only. */
function safeTitle(invoice: EInvoice): string | undefined {
  if (!/^[A-Za-z0-9._/-]+$/.test(invoice.number)) return undefined;
  return `${invoice.typeCode === '381' ? 'Credit note' : 'Invoice'} ${invoice.number}`;
}

/** The Factur-X PDF (profile EN 16931) of `invoice`, with `ciiXml` attached as factur-x.xml. */
export function facturxPdf(
  invoice: EInvoice,
  ciiXml: string,
  options: { createdAt?: Date } = {},
): Promise<Uint8Array> {
  const createdAt = options.createdAt ?? new Date();
  const { regular, bold } = dejaVu();
  const title = safeTitle(invoice);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    subset: 'PDF/A-3b',
    pdfVersion: '1.7',
    // The embedded font from the start: pdfkit then never opens its default Helvetica.
    font: regular as unknown as string,
    bufferPages: true,
    lang: 'en',
    info: {
      CreationDate: createdAt,
      Creator: 'ERP einvoicing',
      Producer: 'PDFKit',
      ...(title ? { Title: title } : {}),
    },
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  try {
    doc.registerFont('regular', regular as unknown as Buffer);
    doc.registerFont('bold', bold as unknown as Buffer);
    drawInvoice(doc, invoice);
    doc.file(Buffer.from(ciiXml, 'utf8'), {
      name: FILE_NAME,
      type: 'text/xml',
      relationship: 'Data',
      description: 'Factur-X invoice',
      creationDate: createdAt,
      modifiedDate: createdAt,
    } as PDFKit.Mixins.PDFAttachmentOptions);
    doc.appendXML(FACTURX_XMP);
    doc.end();
  } catch (error) {
    return Promise.reject(error);
  }
  return done;
}

function drawInvoice(doc: Doc, invoice: EInvoice): void {
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  const creditNote = invoice.typeCode === '381';
  const cur = invoice.currency;
  let y = MARGIN;

  // --- Seller (left) and the document's title and references (right).
  const sideWidth = 215;
  const sideX = left + width - sideWidth;
  const sellerWidth = sideX - left - 25;
  const seller = partyText(invoice.seller);
  let sellerY = y + put(doc, seller.name, left, y, sellerWidth, { font: 'bold', size: 13 }) + 3;
  if (seller.rest) sellerY += put(doc, seller.rest, left, sellerY, sellerWidth, { color: MUTED });

  let metaY =
    y +
    put(doc, creditNote ? 'Credit note' : 'Invoice', sideX, y, sideWidth, {
      font: 'bold',
      size: 20,
    });
  metaY += 4;
  const meta: [string, string | undefined][] = [
    [creditNote ? 'Credit note no.' : 'Invoice no.', invoice.number],
    ['Issue date', invoice.issueDate],
    ['Due date', invoice.dueDate],
    ['Delivery date', invoice.delivery?.date],
    ['Buyer reference', invoice.buyerReference],
    ['Order reference', invoice.orderReference],
    [
      creditNote ? 'Corrects invoice' : 'Preceding invoice',
      invoice.precedingInvoice
        ? `${invoice.precedingInvoice.number}${invoice.precedingInvoice.issueDate ? ` of ${invoice.precedingInvoice.issueDate}` : ''}`
        : undefined,
    ],
  ];
  const labelWidth = 85;
  for (const [label, value] of meta) {
    if (!value) continue;
    put(doc, label, sideX, metaY, labelWidth, { color: MUTED });
    metaY +=
      put(doc, value, sideX + labelWidth, metaY, sideWidth - labelWidth, { font: 'bold' }) + 2;
  }
  y = Math.max(sellerY, metaY) + 18;

  // --- The buyer (a framed block on the right) and the delivery address (left) if any.
  const buyer = partyText(invoice.buyer);
  const pad = 8;
  const boxTop = y;
  let buyerY = y + pad;
  buyerY += put(
    doc,
    creditNote ? 'CREDITED TO' : 'BILL TO',
    sideX + pad,
    buyerY,
    sideWidth - 2 * pad,
    {
      size: 7,
      color: MUTED,
    },
  );
  buyerY += 2;
  buyerY +=
    put(doc, buyer.name, sideX + pad, buyerY, sideWidth - 2 * pad, { font: 'bold', size: 10.5 }) +
    2;
  if (buyer.rest)
    buyerY += put(doc, buyer.rest, sideX + pad, buyerY, sideWidth - 2 * pad, { color: MUTED });
  buyerY += pad;
  doc
    .lineWidth(0.6)
    .strokeColor(RULE)
    .rect(sideX, boxTop, sideWidth, buyerY - boxTop)
    .stroke();
  let deliveryY = y;
  const delivery = addressLines(invoice.delivery?.address);
  if (delivery.length) {
    deliveryY +=
      put(doc, 'DELIVER TO', left, deliveryY + pad, sellerWidth, { size: 7, color: MUTED }) +
      pad +
      2;
    deliveryY += put(doc, delivery.join('\n'), left, deliveryY, sellerWidth, { color: MUTED });
  }
  y = Math.max(buyerY, deliveryY) + 22;

  // --- The lines.
  const columns = [
    { title: 'Description', width: width - 290, align: 'left' as const },
    { title: 'Quantity', width: 75, align: 'right' as const },
    { title: 'Unit price', width: 75, align: 'right' as const },
    { title: 'VAT', width: 55, align: 'right' as const },
    { title: 'Net amount', width: 85, align: 'right' as const },
  ];
  const cell = 4;
  const header = () => {
    const h = 16;
    doc.rect(left, y, width, h).fill(SHADE);
    let x = left;
    for (const column of columns) {
      put(doc, column.title, x + cell, y + 4, column.width - 2 * cell, {
        font: 'bold',
        size: 8,
        align: column.align,
      });
      x += column.width;
    }
    y += h;
  };
  const newPage = () => {
    doc.addPage();
    y = MARGIN;
  };
  put(doc, `Amounts in ${cur}`, left, y - 12, width, { size: 7.5, color: MUTED, align: 'right' });
  header();
  const descWidth = columns[0]!.width - 2 * cell;
  const maxRow = bottom() - MARGIN - 40;
  invoice.lines.forEach((line, index) => {
    const details = [line.description, line.sellerItemId ? `Ref. ${line.sellerItemId}` : undefined]
      .filter((part): part is string => Boolean(part?.trim()))
      .join('\n');
    const nameHeight = Math.min(measure(doc, line.name, descWidth), maxRow / 2);
    const detailsHeight = details
      ? Math.min(measure(doc, details, descWidth, 'regular', 8), maxRow / 2)
      : 0;
    const rowHeight = Math.max(nameHeight + (details ? detailsHeight + 1 : 0), 11) + 2 * cell + 1;
    if (y + rowHeight > bottom()) {
      newPage();
      header();
    }
    const top = y + cell + 1;
    if (index % 2 === 1) doc.rect(left, y, width, rowHeight).fill('#f7f7f7');
    const nameDrawn = put(doc, line.name, left + cell, top, descWidth, { height: nameHeight + 1 });
    if (details) {
      put(doc, details, left + cell, top + nameDrawn + 1, descWidth, {
        size: 8,
        color: MUTED,
        height: detailsHeight + 1,
      });
    }
    const values = [
      quantityText(line),
      amount(line.priceCents),
      rateText(line.vat),
      amount(line.netCents),
    ];
    let x = left + columns[0]!.width;
    values.forEach((value, i) => {
      const column = columns[i + 1]!;
      put(doc, value, x + cell, top, column.width - 2 * cell, { align: 'right' });
      x += column.width;
    });
    y += rowHeight;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  });
  y += 16;

  // --- The VAT breakdown (left) and the totals (right).
  const vatWidth = width - sideWidth - 25;
  const vatColumns = [
    { title: 'VAT category', width: vatWidth - 160, align: 'left' as const },
    { title: 'Rate', width: 40, align: 'right' as const },
    { title: 'Base', width: 62, align: 'right' as const },
    { title: 'VAT', width: 58, align: 'right' as const },
  ];
  const reasons = invoice.vat.map((v) =>
    v.exemption && (v.exemption.text || v.exemption.code)
      ? `Exemption: ${[v.exemption.text, v.exemption.code ? `(${v.exemption.code})` : undefined].filter(Boolean).join(' ')}`
      : '',
  );
  const vatRows = invoice.vat.map((v, i) => {
    const name = `${v.category} – ${VAT_CATEGORY_NAMES[v.category]}`;
    const nameHeight = measure(doc, name, vatColumns[0]!.width - 2 * cell, 'regular', 8.5);
    const reasonHeight = reasons[i]
      ? measure(doc, reasons[i]!, vatWidth - 2 * cell, 'regular', 7.5) + 1
      : 0;
    return { v, name, height: nameHeight + reasonHeight + 2 * cell, reason: reasons[i]! };
  });
  const vatHeight = 16 + vatRows.reduce((sum, row) => sum + row.height, 0);
  const totals: [string, string, boolean][] = [];
  if (invoice.totals.lineNetCents !== invoice.totals.taxExclusiveCents) {
    totals.push(['Sum of lines', amount(invoice.totals.lineNetCents), false]);
  }
  totals.push(['Total excl. VAT', amount(invoice.totals.taxExclusiveCents), false]);
  totals.push(['Total VAT', amount(invoice.totals.taxCents), false]);
  if (invoice.vatCurrency) {
    totals.push([
      `VAT in ${invoice.vatCurrency.code}`,
      amount(invoice.vatCurrency.taxCents),
      false,
    ]);
  }
  totals.push(['Total incl. VAT', amount(invoice.totals.taxInclusiveCents), true]);
  if (invoice.totals.prepaidCents !== 0n) {
    totals.push(['Paid in advance', amount(invoice.totals.prepaidCents), false]);
  }
  const totalsHeight = totals.length * 15 + 30;
  if (y + Math.max(vatHeight, totalsHeight) > bottom()) newPage();
  const blockTop = y;

  doc.rect(left, y, vatWidth, 16).fill(SHADE);
  let vx = left;
  for (const column of vatColumns) {
    put(doc, column.title, vx + cell, y + 4, column.width - 2 * cell, {
      font: 'bold',
      size: 8,
      align: column.align,
    });
    vx += column.width;
  }
  let vy = y + 16;
  for (const row of vatRows) {
    const top = vy + cell;
    const values = [row.name, rateText(row.v), amount(row.v.baseCents), amount(row.v.taxCents)];
    let x = left;
    let nameHeight = 0;
    values.forEach((value, i) => {
      const column = vatColumns[i]!;
      const h = put(doc, value, x + cell, top, column.width - 2 * cell, {
        size: 8.5,
        align: column.align,
      });
      if (i === 0) nameHeight = h;
      x += column.width;
    });
    if (row.reason) {
      put(doc, row.reason, left + cell, top + nameHeight + 1, vatWidth - 2 * cell, {
        size: 7.5,
        color: MUTED,
      });
    }
    vy += row.height;
    doc
      .moveTo(left, vy)
      .lineTo(left + vatWidth, vy)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  }

  let ty = blockTop;
  const valueWidth = 95;
  for (const [label, value, strong] of totals) {
    put(doc, label, sideX, ty, sideWidth - valueWidth, {
      font: strong ? 'bold' : 'regular',
      color: strong ? INK : MUTED,
    });
    put(doc, `${value} ${cur}`, sideX + sideWidth - valueWidth, ty, valueWidth, {
      font: strong ? 'bold' : 'regular',
      align: 'right',
    });
    ty += 15;
  }
  ty += 2;
  doc.rect(sideX, ty, sideWidth, 24).fill(SHADE);
  put(
    doc,
    creditNote ? 'Amount to refund' : 'Amount payable',
    sideX + 6,
    ty + 7,
    sideWidth - valueWidth - 6,
    {
      font: 'bold',
      size: 10,
    },
  );
  put(
    doc,
    `${amount(invoice.totals.payableCents)} ${cur}`,
    sideX + sideWidth - valueWidth - 40,
    ty + 7,
    valueWidth + 34,
    {
      font: 'bold',
      size: 10,
      align: 'right',
    },
  );
  ty += 24;
  y = Math.max(vy, ty) + 22;

  // --- Payment and notes, at the bottom.
  const section = (heading: string, body: string) => {
    const bodyHeight = measure(doc, body, width, 'regular', 8.5);
    if (y + 14 + Math.min(bodyHeight, 60) > bottom()) newPage();
    y += put(doc, heading, left, y, width, { font: 'bold', size: 10 }) + 3;
    doc.font('regular').fontSize(8.5).fillColor(INK);
    // A body longer than what is left of the page flows on to the next ones.
    doc.text(body, left, y, { width, lineGap: 1 });
    y = doc.y + 12;
  };
  const payment = invoice.payment;
  const paymentLines = [
    payment
      ? `Payment means: ${PAYMENT_MEANS[payment.meansCode] ?? 'Code'} (${payment.meansCode})`
      : undefined,
    payment?.iban ? `IBAN: ${ibanText(payment.iban)}` : undefined,
    payment?.bic ? `BIC: ${payment.bic}` : undefined,
    payment?.reference ? `Payment reference: ${payment.reference}` : undefined,
    invoice.paymentTerms ? `Terms: ${invoice.paymentTerms}` : undefined,
  ].filter((part): part is string => Boolean(part));
  if (paymentLines.length) section('Payment', paymentLines.join('\n'));
  const notes = (invoice.notes ?? [])
    .filter((note) => note.text.trim())
    .map((note) =>
      note.subject ? `${NOTE_SUBJECTS[note.subject] ?? note.subject}: ${note.text}` : note.text,
    );
  if (notes.length) section('Notes', notes.join('\n'));

  // --- The footer of every page.
  const range = doc.bufferedPageRange();
  const footer = [
    invoice.seller.name,
    `${creditNote ? 'Credit note' : 'Invoice'} ${invoice.number}`,
  ].join(' · ');
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins;
    const saved = margins.bottom;
    margins.bottom = 0; // writing under the bottom margin must not open a page
    const fy = doc.page.height - MARGIN - 10;
    doc
      .moveTo(left, fy - 5)
      .lineTo(left + width, fy - 5)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    put(doc, footer, left, fy, width - 80, { size: 7, color: MUTED, height: 10 });
    put(doc, `Page ${i - range.start + 1} of ${range.count}`, left + width - 80, fy, 80, {
      size: 7,
      color: MUTED,
      align: 'right',
    });
    margins.bottom = saved;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a Factur-X PDF back.

function text(object: PDFObject | undefined): string | undefined {
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  return object ? object.toString() : undefined;
}

function streamBytes(stream: PDFStream): Uint8Array {
  return stream instanceof PDFRawStream
    ? decodePDFRawStream(stream).decode()
    : stream.getContents();
}

/**
 * The invoice XML attached to a Factur-X (or ZUGFeRD 2, XRechnung) PDF, its name, and the
 * structural problems found on the way (the checks of `facturx-check.js`: not a PDF/A
 * validator). Throws `FacturXError` for bytes that are not a PDF, an encrypted PDF, or a PDF
 * with no such XML attached.
 */
export async function readFacturX(
  pdf: Uint8Array,
): Promise<{ xml: string; name: string; problems: string[] }> {
  let document: PdfLibDocument;
  try {
    document = await PdfLibDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    throw new FacturXError(`not a readable PDF: ${(error as Error).message}`, { cause: error });
  }
  if (document.isEncrypted) {
    throw new FacturXError(
      'the PDF is encrypted (PDF/A forbids it): its invoice XML cannot be read',
    );
  }
  const context = document.context;
  const catalog = document.catalog;
  const problems: string[] = [];

  // --- The attached files: the /EmbeddedFiles name tree, then the catalogue's /AF.
  const files: { name: string; spec: PDFDict; ref: PDFObject }[] = [];
  const seen = new Set<PDFObject>();
  const walk = (node: PDFObject | undefined, depth: number) => {
    if (!(node instanceof PDFDict) || seen.has(node) || depth > 32) return;
    seen.add(node);
    const names = node.lookup(PDFName.of('Names'));
    if (names instanceof PDFArray) {
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const spec = context.lookup(names.get(i + 1));
        const name = text(context.lookup(names.get(i)));
        if (spec instanceof PDFDict && name !== undefined)
          files.push({ name, spec, ref: names.get(i + 1) });
      }
    }
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) {
      for (let i = 0; i < kids.size(); i++) walk(context.lookup(kids.get(i)), depth + 1);
    }
  };
  const namesDict = catalog.lookup(PDFName.of('Names'));
  if (namesDict instanceof PDFDict) walk(namesDict.lookup(PDFName.of('EmbeddedFiles')), 0);
  const af = catalog.lookup(PDFName.of('AF'));
  const afRefs = af instanceof PDFArray ? af.asArray() : [];
  let file = files.find((f) => XML_NAMES.test(f.name.trim()));
  if (!file) {
    // An attachment left out of the name tree (hidden) but listed in /AF.
    for (const ref of afRefs) {
      const spec = context.lookup(ref);
      if (!(spec instanceof PDFDict)) continue;
      const name = text(spec.lookup(PDFName.of('UF'))) ?? text(spec.lookup(PDFName.of('F')));
      if (name && XML_NAMES.test(name.trim())) {
        file = { name: name.trim(), spec, ref };
        problems.push(`${name} is not in the /EmbeddedFiles name tree`);
        break;
      }
    }
  }
  if (!file) {
    const found = files.map((f) => f.name).join(', ');
    throw new FacturXError(
      `no factur-x.xml, zugferd-invoice.xml or xrechnung.xml attached to the PDF${found ? ` (attached: ${found})` : ''}`,
    );
  }
  const { name, spec, ref } = file;
  const relationship = spec.lookup(PDFName.of('AFRelationship'));
  if (!relationship || !/^\/(Data|Alternative|Source)$/.test(relationship.toString())) {
    problems.push(
      `the file specification's /AFRelationship is ${relationship ?? 'missing'} (expected /Data, /Alternative or /Source)`,
    );
  }
  const ef = spec.lookup(PDFName.of('EF'));
  const stream =
    ef instanceof PDFDict ? (ef.lookup(PDFName.of('F')) ?? ef.lookup(PDFName.of('UF'))) : undefined;
  if (!(stream instanceof PDFStream)) {
    throw new FacturXError(`${name} is named in the PDF but its content is missing`);
  }
  const subtype = stream.dict.get(PDFName.of('Subtype'));
  if (!subtype || !/text#2Fxml|text\/xml/.test(subtype.toString())) {
    problems.push(`the embedded file's /Subtype is ${subtype ?? 'missing'} (expected /text#2Fxml)`);
  }
  let bytes: Uint8Array;
  try {
    bytes = streamBytes(stream);
  } catch (error) {
    throw new FacturXError(`${name} cannot be decoded: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    xml = new TextDecoder('utf-8').decode(bytes);
    problems.push(`${name} is not UTF-8`);
  }
  const refText = String(ref);
  if (!afRefs.some((entry) => entry === ref || String(entry) === refText)) {
    problems.push("the catalogue's /AF array does not reference the XML file specification");
  }

  // --- The XMP metadata.
  const metadata = catalog.lookup(PDFName.of('Metadata'));
  if (!(metadata instanceof PDFStream)) problems.push('no XMP /Metadata stream in the catalogue');
  else {
    const xmp = new TextDecoder('utf-8').decode(streamBytes(metadata));
    const get = (re: RegExp) => re.exec(xmp)?.[1];
    const part = get(/pdfaid:part(?:>|=")\s*(\d)/);
    const conformance = get(/pdfaid:conformance(?:>|=")\s*([ABU])/i);
    const fxName = get(/fx:DocumentFileName(?:>|=")\s*([^<"]+)/);
    const fxLevel = get(/fx:ConformanceLevel(?:>|=")\s*([^<"]+)/);
    const fxType = get(/fx:DocumentType(?:>|=")\s*([^<"]+)/);
    if (part !== '3') problems.push(`XMP pdfaid:part is ${part ?? 'missing'} (expected 3)`);
    if (!conformance) problems.push('XMP pdfaid:conformance is missing');
    if (!fxName || fxName.trim() !== name) {
      problems.push(
        `XMP fx:DocumentFileName (${fxName ?? 'missing'}) does not match the attached ${name}`,
      );
    }
    if (!fxLevel) problems.push('XMP fx:ConformanceLevel is missing');
    if (!fxType) problems.push('XMP fx:DocumentType is missing');
    if (!/pdfaExtension:schemas/.test(xmp)) {
      problems.push('XMP lacks the PDF/A extension schema describing the fx: namespace');
    }
  }

  // --- The output intent.
  const intents = catalog.lookup(PDFName.of('OutputIntents'));
  const pdfa =
    intents instanceof PDFArray &&
    intents.asArray().some((entry) => {
      const intent = context.lookup(entry);
      return intent instanceof PDFDict && String(intent.get(PDFName.of('S'))) === '/GTS_PDFA1';
    });
  if (!pdfa) problems.push('no /OutputIntents entry with /S /GTS_PDFA1 (ICC profile)');

  // --- Every font embedded (PDF/A).
  const unembedded = new Set<string>();
  const embedded = (font: PDFDict) => {
    const descriptor = font.lookup(PDFName.of('FontDescriptor'));
    return (
      descriptor instanceof PDFDict &&
      ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.get(PDFName.of(key)))
    );
  };
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || String(object.get(PDFName.of('Type'))) !== '/Font')
      continue;
    const sub = String(object.get(PDFName.of('Subtype')));
    if (sub === '/Type3') continue;
    if (sub === '/Type0') {
      // Its descendant CIDFont is an indirect object too, checked on its own; a direct one here.
      const descendants = object.lookup(PDFName.of('DescendantFonts'));
      if (descendants instanceof PDFArray) {
        for (const entry of descendants.asArray()) {
          if (entry instanceof PDFRef) continue;
          const font = context.lookup(entry);
          if (font instanceof PDFDict && !embedded(font))
            unembedded.add(String(object.get(PDFName.of('BaseFont'))));
        }
      }
      continue;
    }
    if (!embedded(object)) unembedded.add(String(object.get(PDFName.of('BaseFont'))));
  }
  if (unembedded.size) problems.push(`fonts not embedded: ${[...unembedded].join(' ')}`);

  return { xml, name, problems };
}
