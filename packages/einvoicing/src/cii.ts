/**
 * UN/CEFACT Cross Industry Invoice D16B, as EN 16931-3-3 binds the model to it (and as
 * Factur-X carries it). Elements are written in the order the D16B schema requires.
 */
import { type Address, amount, type EInvoice, type Line, type Party } from './model';
import { EN16931 } from './ubl';
import { type Element, el, serialize } from './xml';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** `2026-03-21` → `20260321`, format 102. */
const date102 = (iso: string) => iso.replaceAll('-', '');

function dateTime(name: string, iso: string | undefined, type = 'udt'): Element | undefined {
  return iso ? el(name, el(`${type}:DateTimeString`, date102(iso), { format: '102' })) : undefined;
}

function address(a: Address): Element | undefined {
  return el('ram:PostalTradeAddress', [
    el('ram:PostcodeCode', a.postalCode),
    el('ram:LineOne', a.line1),
    el('ram:LineTwo', a.line2),
    el('ram:CityName', a.city),
    el('ram:CountryID', a.country),
    el('ram:CountrySubDivisionName', a.subdivision),
  ]);
}

function party(name: string, p: Party, role: 'seller' | 'buyer'): Element | undefined {
  return el(name, [
    p.id ? el('ram:GlobalID', p.id.value, { schemeID: p.id.scheme }) : undefined,
    el('ram:Name', p.name),
    role === 'seller' ? el('ram:Description', p.legalInfo) : undefined,
    el('ram:SpecifiedLegalOrganization', [
      p.legalId ? el('ram:ID', p.legalId.value, { schemeID: p.legalId.scheme }) : undefined,
      el('ram:TradingBusinessName', p.tradingName),
    ]),
    address(p.address),
    p.email
      ? el('ram:URIUniversalCommunication', el('ram:URIID', p.email, { schemeID: 'EM' }))
      : undefined,
    p.vatId
      ? el('ram:SpecifiedTaxRegistration', el('ram:ID', p.vatId, { schemeID: 'VA' }))
      : undefined,
  ]);
}

function line(l: Line): Element | undefined {
  return el('ram:IncludedSupplyChainTradeLineItem', [
    el('ram:AssociatedDocumentLineDocument', el('ram:LineID', l.id)),
    el('ram:SpecifiedTradeProduct', [
      el('ram:SellerAssignedID', l.sellerItemId),
      el('ram:Name', l.name),
      el('ram:Description', l.description),
    ]),
    el(
      'ram:SpecifiedLineTradeAgreement',
      el('ram:NetPriceProductTradePrice', el('ram:ChargeAmount', amount(l.priceCents))),
    ),
    el(
      'ram:SpecifiedLineTradeDelivery',
      el('ram:BilledQuantity', l.quantity, { unitCode: l.unitCode }),
    ),
    el('ram:SpecifiedLineTradeSettlement', [
      el('ram:ApplicableTradeTax', [
        el('ram:TypeCode', 'VAT'),
        el('ram:CategoryCode', l.vat.category),
        l.vat.category === 'O' ? undefined : el('ram:RateApplicablePercent', l.vat.rate),
      ]),
      el(
        'ram:SpecifiedTradeSettlementLineMonetarySummation',
        el('ram:LineTotalAmount', amount(l.netCents)),
      ),
    ]),
  ]);
}

/** The invoice as CII D16B XML text (what Factur-X attaches as `factur-x.xml`). */
export function toCii(invoice: EInvoice): string {
  const t = invoice.totals;
  const cur = invoice.currency;
  const root = el(
    'rsm:CrossIndustryInvoice',
    [
      el(
        'rsm:ExchangedDocumentContext',
        el('ram:GuidelineSpecifiedDocumentContextParameter', el('ram:ID', EN16931)),
      ),
      el('rsm:ExchangedDocument', [
        el('ram:ID', invoice.number),
        el('ram:TypeCode', invoice.typeCode),
        dateTime('ram:IssueDateTime', invoice.issueDate),
        ...(invoice.notes ?? []).map((n) =>
          el('ram:IncludedNote', [el('ram:Content', n.text), el('ram:SubjectCode', n.subject)]),
        ),
      ]),
      el('rsm:SupplyChainTradeTransaction', [
        ...invoice.lines.map(line),
        el('ram:ApplicableHeaderTradeAgreement', [
          el('ram:BuyerReference', invoice.buyerReference),
          party('ram:SellerTradeParty', invoice.seller, 'seller'),
          party('ram:BuyerTradeParty', invoice.buyer, 'buyer'),
          invoice.orderReference
            ? el(
                'ram:BuyerOrderReferencedDocument',
                el('ram:IssuerAssignedID', invoice.orderReference),
              )
            : undefined,
        ]),
        // Required even when empty.
        el('ram:ApplicableHeaderTradeDelivery', [
          invoice.delivery?.address
            ? el('ram:ShipToTradeParty', address(invoice.delivery.address))
            : undefined,
          invoice.delivery?.date
            ? el(
                'ram:ActualDeliverySupplyChainEvent',
                dateTime('ram:OccurrenceDateTime', invoice.delivery.date),
              )
            : undefined,
        ]) ?? { name: 'ram:ApplicableHeaderTradeDelivery', children: [] },
        el('ram:ApplicableHeaderTradeSettlement', [
          el('ram:PaymentReference', invoice.payment?.reference),
          el('ram:TaxCurrencyCode', invoice.vatCurrency?.code),
          el('ram:InvoiceCurrencyCode', cur),
          invoice.payment
            ? el('ram:SpecifiedTradeSettlementPaymentMeans', [
                el('ram:TypeCode', invoice.payment.meansCode),
                invoice.payment.iban
                  ? el(
                      'ram:PayeePartyCreditorFinancialAccount',
                      el('ram:IBANID', invoice.payment.iban),
                    )
                  : undefined,
                invoice.payment.bic
                  ? el(
                      'ram:PayeeSpecifiedCreditorFinancialInstitution',
                      el('ram:BICID', invoice.payment.bic),
                    )
                  : undefined,
              ])
            : undefined,
          ...invoice.vat.map((v) =>
            el('ram:ApplicableTradeTax', [
              el('ram:CalculatedAmount', amount(v.taxCents)),
              el('ram:TypeCode', 'VAT'),
              el('ram:ExemptionReason', v.exemption?.text),
              el('ram:BasisAmount', amount(v.baseCents)),
              el('ram:CategoryCode', v.category),
              el('ram:ExemptionReasonCode', v.exemption?.code),
              v.category === 'O' ? undefined : el('ram:RateApplicablePercent', v.rate),
            ]),
          ),
          invoice.paymentTerms || invoice.dueDate
            ? el('ram:SpecifiedTradePaymentTerms', [
                el('ram:Description', invoice.paymentTerms),
                dateTime('ram:DueDateDateTime', invoice.dueDate),
              ])
            : undefined,
          el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
            el('ram:LineTotalAmount', amount(t.lineNetCents)),
            el('ram:TaxBasisTotalAmount', amount(t.taxExclusiveCents)),
            el('ram:TaxTotalAmount', amount(t.taxCents), { currencyID: cur }),
            invoice.vatCurrency
              ? el('ram:TaxTotalAmount', amount(invoice.vatCurrency.taxCents), {
                  currencyID: invoice.vatCurrency.code,
                })
              : undefined,
            el('ram:GrandTotalAmount', amount(t.taxInclusiveCents)),
            t.prepaidCents ? el('ram:TotalPrepaidAmount', amount(t.prepaidCents)) : undefined,
            el('ram:DuePayableAmount', amount(t.payableCents)),
          ]),
          invoice.precedingInvoice
            ? el('ram:InvoiceReferencedDocument', [
                el('ram:IssuerAssignedID', invoice.precedingInvoice.number),
                dateTime('ram:FormattedIssueDateTime', invoice.precedingInvoice.issueDate, 'qdt'),
              ])
            : undefined,
        ]),
      ]),
    ],
    { 'xmlns:rsm': NS.rsm, 'xmlns:qdt': NS.qdt, 'xmlns:ram': NS.ram, 'xmlns:udt': NS.udt },
  );
  return serialize(root!);
}
