/**
 * UBL 2.1 (OASIS), as EN 16931-3-2 binds the model to it: `Invoice` for a 380, `CreditNote`
 * for a 381. Writes and reads the terms of `model.ts`, nothing else.
 */
import {
  type Address,
  amount,
  type EInvoice,
  type Line,
  type Party,
  type VatBreakdown,
} from './model';
import { type Element, el, serialize } from './xml';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** EN 16931's specification identifier (BT-24). */
export const EN16931 = 'urn:cen.eu:en16931:2017';

const VAT = el('cac:TaxScheme', el('cbc:ID', 'VAT'));

function money(name: string, cents: bigint, currency: string): Element | undefined {
  return el(name, amount(cents), { currencyID: currency });
}

function address(a: Address): Element | undefined {
  return el('cac:PostalAddress', [
    el('cbc:StreetName', a.line1),
    el('cbc:AdditionalStreetName', a.line2),
    el('cbc:CityName', a.city),
    el('cbc:PostalZone', a.postalCode),
    el('cbc:CountrySubentity', a.subdivision),
    el('cac:Country', el('cbc:IdentificationCode', a.country)),
  ]);
}

function party(p: Party, role: 'seller' | 'buyer'): Element | undefined {
  return el('cac:Party', [
    p.email ? el('cbc:EndpointID', p.email, { schemeID: 'EM' }) : undefined,
    p.id
      ? el('cac:PartyIdentification', el('cbc:ID', p.id.value, { schemeID: p.id.scheme }))
      : undefined,
    p.tradingName ? el('cac:PartyName', el('cbc:Name', p.tradingName)) : undefined,
    address(p.address),
    p.vatId ? el('cac:PartyTaxScheme', [el('cbc:CompanyID', p.vatId), VAT]) : undefined,
    el('cac:PartyLegalEntity', [
      el('cbc:RegistrationName', p.name),
      p.legalId ? el('cbc:CompanyID', p.legalId.value, { schemeID: p.legalId.scheme }) : undefined,
      role === 'seller' ? el('cbc:CompanyLegalForm', p.legalInfo) : undefined,
    ]),
    p.email ? el('cac:Contact', el('cbc:ElectronicMail', p.email)) : undefined,
  ]);
}

function category(
  name: string,
  vat: { category: string; rate: string },
  exemption?: VatBreakdown['exemption'],
) {
  return el(name, [
    el('cbc:ID', vat.category),
    // Category O has no rate (BR-O-05, BR-O-10).
    vat.category === 'O' ? undefined : el('cbc:Percent', vat.rate),
    el('cbc:TaxExemptionReasonCode', exemption?.code),
    el('cbc:TaxExemptionReason', exemption?.text),
    VAT,
  ]);
}

function line(l: Line, invoice: EInvoice, credit: boolean): Element | undefined {
  return el(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
    el('cbc:ID', l.id),
    el(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', l.quantity, {
      unitCode: l.unitCode,
    }),
    money('cbc:LineExtensionAmount', l.netCents, invoice.currency),
    el('cac:Item', [
      el('cbc:Description', l.description),
      el('cbc:Name', l.name),
      l.sellerItemId
        ? el('cac:SellersItemIdentification', el('cbc:ID', l.sellerItemId))
        : undefined,
      category('cac:ClassifiedTaxCategory', l.vat),
    ]),
    el('cac:Price', money('cbc:PriceAmount', l.priceCents, invoice.currency)),
  ]);
}

/** The invoice as UBL 2.1 XML text. */
export function toUbl(invoice: EInvoice): string {
  const credit = invoice.typeCode === '381';
  const cur = invoice.currency;
  const t = invoice.totals;
  const root = el(
    credit ? 'CreditNote' : 'Invoice',
    [
      el('cbc:CustomizationID', EN16931),
      el('cbc:ID', invoice.number),
      el('cbc:IssueDate', invoice.issueDate),
      credit ? undefined : el('cbc:DueDate', invoice.dueDate),
      el(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', invoice.typeCode),
      ...(invoice.notes ?? []).map((n) =>
        el('cbc:Note', n.subject ? `#${n.subject}#${n.text}` : n.text),
      ),
      el('cbc:DocumentCurrencyCode', cur),
      el('cbc:TaxCurrencyCode', invoice.vatCurrency?.code),
      el('cbc:BuyerReference', invoice.buyerReference),
      invoice.orderReference
        ? el('cac:OrderReference', el('cbc:ID', invoice.orderReference))
        : undefined,
      invoice.precedingInvoice
        ? el(
            'cac:BillingReference',
            el('cac:InvoiceDocumentReference', [
              el('cbc:ID', invoice.precedingInvoice.number),
              el('cbc:IssueDate', invoice.precedingInvoice.issueDate),
            ]),
          )
        : undefined,
      el('cac:AccountingSupplierParty', party(invoice.seller, 'seller')),
      el('cac:AccountingCustomerParty', party(invoice.buyer, 'buyer')),
      invoice.delivery
        ? el('cac:Delivery', [
            el('cbc:ActualDeliveryDate', invoice.delivery.date),
            invoice.delivery.address
              ? el(
                  'cac:DeliveryLocation',
                  el('cac:Address', address(invoice.delivery.address)?.children),
                )
              : undefined,
          ])
        : undefined,
      invoice.payment
        ? el('cac:PaymentMeans', [
            el('cbc:PaymentMeansCode', invoice.payment.meansCode),
            credit ? el('cbc:PaymentDueDate', invoice.dueDate) : undefined,
            el('cbc:PaymentID', invoice.payment.reference),
            invoice.payment.iban
              ? el('cac:PayeeFinancialAccount', [
                  el('cbc:ID', invoice.payment.iban),
                  invoice.payment.bic
                    ? el('cac:FinancialInstitutionBranch', el('cbc:ID', invoice.payment.bic))
                    : undefined,
                ])
              : undefined,
          ])
        : undefined,
      invoice.paymentTerms
        ? el('cac:PaymentTerms', el('cbc:Note', invoice.paymentTerms))
        : undefined,
      el('cac:TaxTotal', [
        money('cbc:TaxAmount', t.taxCents, cur),
        ...invoice.vat.map((v) =>
          el('cac:TaxSubtotal', [
            money('cbc:TaxableAmount', v.baseCents, cur),
            money('cbc:TaxAmount', v.taxCents, cur),
            category('cac:TaxCategory', v, v.exemption),
          ]),
        ),
      ]),
      invoice.vatCurrency
        ? el(
            'cac:TaxTotal',
            money('cbc:TaxAmount', invoice.vatCurrency.taxCents, invoice.vatCurrency.code),
          )
        : undefined,
      el('cac:LegalMonetaryTotal', [
        money('cbc:LineExtensionAmount', t.lineNetCents, cur),
        money('cbc:TaxExclusiveAmount', t.taxExclusiveCents, cur),
        money('cbc:TaxInclusiveAmount', t.taxInclusiveCents, cur),
        t.prepaidCents ? money('cbc:PrepaidAmount', t.prepaidCents, cur) : undefined,
        money('cbc:PayableAmount', t.payableCents, cur),
      ]),
      ...invoice.lines.map((l) => line(l, invoice, credit)),
    ],
    {
      xmlns: credit ? NS.creditNote : NS.invoice,
      'xmlns:cac': NS.cac,
      'xmlns:cbc': NS.cbc,
    },
  );
  return serialize(root!);
}
