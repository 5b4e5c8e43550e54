/**
 * A priced document of the books (its lines as the API keeps them, the taxes they name) as the
 * EN 16931 model: the same exact amounts the books posted (`documentTotals`: each line's net
 * rounded once, the tax per tax and rate on the sum of the nets), grouped by VAT category and
 * rate as the norm's breakdown is. The category is the tax's (`vat_category`); a line without
 * one is S above 0 % and Z at 0 %.
 */
import {
  canonicalDecimal,
  convertCents,
  documentTotals,
  lineNetCents,
} from '@erp/contract/amounts';
import { CATEGORIES_WITH_REASON, DEFAULT_EXEMPTION, type VatCategory } from '@erp/contract/vat';
import { type EInvoice, type Line, type Party, unitCode, type VatBreakdown } from './model';

/** A line as the API keeps it. */
export interface DocumentLine {
  description: string;
  quantity: string;
  unit_of_measure?: string | null;
  unit_price_cents: number;
  tax_rate: string;
  tax_id?: string | null;
  /** The product's SKU, the seller's item identifier. */
  sku?: string | null;
}

/** What a tax says of itself on an e-invoice. */
export interface DocumentTax {
  category: VatCategory | null;
  code?: string | null;
  reason?: string | null;
}

export interface PricedDocument {
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate?: string | undefined;
  currency: string;
  /** The books' currency and the document's rate to it (BT-6, BT-111 when they differ). */
  companyCurrency: string;
  exchangeRate?: string | null | undefined;
  lines: DocumentLine[];
  taxes: Record<string, DocumentTax>;
  seller: Party;
  buyer: Party;
  /** The totals the document keeps; checked against its lines. */
  totals?: { subtotal_cents: number; tax_cents: number; total_cents: number } | undefined;
  rest?: Partial<
    Pick<
      EInvoice,
      | 'buyerReference'
      | 'orderReference'
      | 'precedingInvoice'
      | 'notes'
      | 'payment'
      | 'paymentTerms'
    >
  >;
}

/** Thrown when a document's stored totals are not its lines' (a bug, never user input). */
export class InconsistentDocument extends Error {}

function negate(value: string): string {
  const text = canonicalDecimal(value);
  if (text === '0') return '0';
  return text.startsWith('-') ? text.slice(1) : `-${text}`;
}

/** The model of a priced document. */
export function buildEInvoice(doc: PricedDocument): EInvoice {
  const categoryOf = (line: { tax_id?: string | null; tax_rate: string }): VatCategory => {
    const declared = line.tax_id ? doc.taxes[line.tax_id]?.category : null;
    return declared ?? (Number(line.tax_rate) > 0 ? 'S' : 'Z');
  };
  const totals = documentTotals(
    doc.lines.map((l) => ({ ...l, tax_rate: l.tax_rate ?? '0', tax_id: l.tax_id ?? null })),
  );
  const lines: Line[] = doc.lines.map((l, i) => {
    // A price is never negative (BR-27): a discount is a negative quantity at a positive price.
    const negative = l.unit_price_cents < 0;
    const quantity = negative ? negate(l.quantity) : canonicalDecimal(l.quantity);
    const price = BigInt(Math.abs(l.unit_price_cents));
    const net = BigInt(totals.lines_net_cents[i]!);
    if (lineNetCents(quantity, price) !== net)
      throw new InconsistentDocument(`line ${i + 1}: its net is not quantity × price`);
    const category = categoryOf(l);
    return {
      id: String(i + 1),
      name: l.description,
      sellerItemId: l.sku || undefined,
      quantity,
      unitCode: unitCode(l.unit_of_measure),
      priceCents: price,
      netCents: net,
      vat: { category, rate: category === 'O' ? '0' : canonicalDecimal(l.tax_rate) },
    };
  });
  const groups = new Map<string, VatBreakdown>();
  lines.forEach((line, i) => {
    const key = `${line.vat.category}|${line.vat.rate}`;
    const source = doc.lines[i]!;
    const tax = source.tax_id ? doc.taxes[source.tax_id] : undefined;
    const fallback = DEFAULT_EXEMPTION[line.vat.category];
    const group = groups.get(key) ?? {
      category: line.vat.category,
      rate: line.vat.rate,
      baseCents: 0n,
      taxCents: 0n,
      ...(CATEGORIES_WITH_REASON.includes(line.vat.category)
        ? {
            exemption: {
              code: tax?.code ?? fallback?.code,
              text: tax?.reason ?? fallback?.text,
            },
          }
        : {}),
    };
    group.baseCents += line.netCents;
    groups.set(key, group);
  });
  // The books' taxes are per tax and rate, each rounded once; a category and rate's is their sum.
  for (const tax of totals.taxes) {
    const category = categoryOf({ tax_id: tax.tax_id, tax_rate: tax.rate });
    groups.get(`${category}|${category === 'O' ? '0' : tax.rate}`)!.taxCents += BigInt(
      tax.tax_cents,
    );
  }
  if (
    doc.totals &&
    (doc.totals.subtotal_cents !== totals.subtotal_cents ||
      doc.totals.tax_cents !== totals.tax_cents ||
      doc.totals.total_cents !== totals.total_cents)
  )
    throw new InconsistentDocument(`the totals of ${doc.number} are not its lines'`);
  const subtotal = BigInt(totals.subtotal_cents);
  const taxCents = BigInt(totals.tax_cents);
  const total = BigInt(totals.total_cents);
  const vat = [...groups.values()];
  return {
    typeCode: doc.typeCode,
    number: doc.number,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate,
    currency: doc.currency,
    vatCurrency:
      doc.currency !== doc.companyCurrency && doc.exchangeRate
        ? { code: doc.companyCurrency, taxCents: convertCents(taxCents, doc.exchangeRate) }
        : undefined,
    ...doc.rest,
    seller: doc.seller,
    buyer: doc.buyer,
    // An intra-community supply says where and when the goods went (BR-IC-11, BR-IC-12).
    delivery: vat.some((g) => g.category === 'K')
      ? { date: doc.issueDate, address: { country: doc.buyer.address.country } }
      : undefined,
    lines,
    vat,
    totals: {
      lineNetCents: subtotal,
      taxExclusiveCents: subtotal,
      taxCents,
      taxInclusiveCents: total,
      prepaidCents: 0n,
      payableCents: total,
    },
  };
}
