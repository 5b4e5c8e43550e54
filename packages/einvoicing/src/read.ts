/**
 * Reads a UBL 2.1 or CII D16B document into the model (`model.ts`), the terms a supplier
 * invoice needs. It reads; the official rules (`validate.ts`) judge. Document-level
 * allowances and charges (BG-20, BG-21) are read as lines of their own, so that the lines
 * add up to the document's net total.
 */
import { lineNetCents, toMillionths } from '@erp/contract/amounts';
import {
  type Address,
  centsOf,
  decimalText,
  type EInvoice,
  type Line,
  type Party,
  VAT_CATEGORIES,
  type VatBreakdown,
  type VatCategory,
} from './model';
import { syntaxOf } from './validate';
import { all, attribute, type Node, one, parse, text, XmlError } from './xml';

/** A price in minor units when it has at most two decimals; undefined otherwise. */
function priceCents(value: string | undefined): bigint | undefined {
  const canonical = decimalText(value);
  return canonical === undefined ? undefined : centsOf(canonical);
}

function cents(node: Node | undefined, path: string, term: string): bigint {
  const value = centsOf(text(node, path));
  if (value === undefined) throw new XmlError(`${term} (${path}) is missing or not an amount`);
  return value;
}

const optionalCents = (node: Node | undefined, path: string): bigint | undefined =>
  centsOf(text(node, path));

function category(value: string | undefined): VatCategory {
  return (VAT_CATEGORIES as readonly string[]).includes(value ?? '') ? (value as VatCategory) : 'S';
}

/** `20260321` (format 102) or `2026-03-21` → `2026-03-21`. */
function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/**
 * A line as the engine computes it (net = quantity × unit price, rounded once). A return line
 * written with a positive quantity and a negative net gets its quantity negated; a line whose
 * price has sub-cent precision, or whose net is not its quantity × price, is read as one unit at
 * its net amount, the original quantity and price kept in its description.
 */
function pricedLine(line: Omit<Line, 'priceCents'> & { price: string | undefined }): Line {
  const { price, ...rest } = line;
  const unit = priceCents(price);
  if (unit !== undefined && toMillionthsOrUndefined(rest.quantity) !== undefined) {
    if (lineNetCents(rest.quantity, unit) === rest.netCents) return { ...rest, priceCents: unit };
    const negated = rest.quantity.startsWith('-') ? rest.quantity.slice(1) : `-${rest.quantity}`;
    if (lineNetCents(negated, unit) === rest.netCents)
      return { ...rest, quantity: negated, priceCents: unit };
  }
  return {
    ...rest,
    description: [rest.description, `${rest.quantity} × ${price ?? '?'}`]
      .filter(Boolean)
      .join(' — '),
    quantity: '1',
    priceCents: rest.netCents,
  };
}

function toMillionthsOrUndefined(value: string): bigint | undefined {
  try {
    return toMillionths(value);
  } catch {
    return undefined;
  }
}

// --- UBL ---------------------------------------------------------------------------------

function ublAddress(node: Node | undefined): Address {
  return {
    line1: text(node, 'StreetName'),
    line2: text(node, 'AdditionalStreetName'),
    city: text(node, 'CityName'),
    postalCode: text(node, 'PostalZone'),
    subdivision: text(node, 'CountrySubentity'),
    country: text(node, 'Country/IdentificationCode') ?? '',
  };
}

function ublParty(node: Node | undefined): Party {
  const party = one(node, 'Party');
  const vat = all(party, 'PartyTaxScheme').find((s) => text(s, 'TaxScheme/ID') === 'VAT');
  const id = one(party, 'PartyIdentification/ID');
  const legal = one(party, 'PartyLegalEntity/CompanyID');
  return {
    name: text(party, 'PartyLegalEntity/RegistrationName') ?? text(party, 'PartyName/Name') ?? '',
    tradingName: text(party, 'PartyName/Name'),
    id: id
      ? { value: text(id) ?? '', scheme: attribute(party, 'PartyIdentification/ID', 'schemeID') }
      : undefined,
    legalId: legal
      ? {
          value: text(legal) ?? '',
          scheme: attribute(party, 'PartyLegalEntity/CompanyID', 'schemeID'),
        }
      : undefined,
    vatId: text(vat, 'CompanyID'),
    email: text(party, 'Contact/ElectronicMail'),
    address: ublAddress(one(party, 'PostalAddress')),
  };
}

function ublCategory(node: Node | undefined): { category: VatCategory; rate: string } {
  return {
    category: category(text(node, 'ID')),
    rate: decimalText(text(node, 'Percent')) ?? '0',
  };
}

function readUbl(root: Node, credit: boolean): EInvoice {
  const lines: Line[] = all(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((l) =>
    pricedLine({
      id: text(l, 'ID') ?? '',
      name: text(l, 'Item/Name') ?? text(l, 'Item/Description') ?? '',
      description: text(l, 'Item/Description'),
      sellerItemId: text(l, 'Item/SellersItemIdentification/ID'),
      quantity: decimalText(text(l, credit ? 'CreditedQuantity' : 'InvoicedQuantity')) ?? '1',
      unitCode: attribute(l, credit ? 'CreditedQuantity' : 'InvoicedQuantity', 'unitCode') ?? 'C62',
      price: text(l, 'Price/PriceAmount'),
      netCents: cents(l, 'LineExtensionAmount', 'BT-131'),
      vat: ublCategory(one(l, 'Item/ClassifiedTaxCategory')),
    }),
  );
  for (const charge of all(root, 'AllowanceCharge')) {
    const isCharge = text(charge, 'ChargeIndicator') === 'true';
    const value = cents(charge, 'Amount', isCharge ? 'BT-99' : 'BT-92');
    lines.push({
      id: `${isCharge ? 'charge' : 'allowance'}-${lines.length + 1}`,
      name: text(charge, 'AllowanceChargeReason') ?? (isCharge ? 'Charge' : 'Allowance'),
      quantity: isCharge ? '1' : '-1',
      unitCode: 'C62',
      priceCents: value,
      netCents: isCharge ? value : -value,
      vat: ublCategory(one(charge, 'TaxCategory')),
    });
  }
  const currency = text(root, 'DocumentCurrencyCode') ?? '';
  const taxTotals = all(root, 'TaxTotal');
  const main =
    taxTotals.find((t) => attribute(t, 'TaxAmount', 'currencyID') === currency) ?? taxTotals[0];
  const vat: VatBreakdown[] = all(main, 'TaxSubtotal').map((s) => ({
    ...ublCategory(one(s, 'TaxCategory')),
    baseCents: cents(s, 'TaxableAmount', 'BT-116'),
    taxCents: cents(s, 'TaxAmount', 'BT-117'),
    exemption: {
      code: text(s, 'TaxCategory/TaxExemptionReasonCode'),
      text: text(s, 'TaxCategory/TaxExemptionReason'),
    },
  }));
  const totals = one(root, 'LegalMonetaryTotal');
  const preceding = one(root, 'BillingReference/InvoiceDocumentReference');
  const means = one(root, 'PaymentMeans');
  return {
    typeCode: credit ? '381' : '380',
    number: text(root, 'ID') ?? '',
    issueDate: isoDate(text(root, 'IssueDate')) ?? '',
    dueDate: isoDate(text(root, 'DueDate') ?? text(means, 'PaymentDueDate')),
    currency,
    buyerReference: text(root, 'BuyerReference'),
    orderReference: text(root, 'OrderReference/ID'),
    precedingInvoice: preceding
      ? { number: text(preceding, 'ID') ?? '', issueDate: isoDate(text(preceding, 'IssueDate')) }
      : undefined,
    notes: all(root, 'Note').map((n) => ({ text: text(n) ?? '' })),
    seller: ublParty(one(root, 'AccountingSupplierParty')),
    buyer: ublParty(one(root, 'AccountingCustomerParty')),
    payment: means
      ? {
          meansCode: text(means, 'PaymentMeansCode') ?? '',
          reference: text(means, 'PaymentID'),
          iban: text(means, 'PayeeFinancialAccount/ID'),
          bic: text(means, 'PayeeFinancialAccount/FinancialInstitutionBranch/ID'),
        }
      : undefined,
    paymentTerms: text(root, 'PaymentTerms/Note'),
    lines,
    vat,
    totals: {
      lineNetCents: cents(totals, 'LineExtensionAmount', 'BT-106'),
      taxExclusiveCents: cents(totals, 'TaxExclusiveAmount', 'BT-109'),
      taxCents: vat.reduce((sum, v) => sum + v.taxCents, 0n),
      taxInclusiveCents: cents(totals, 'TaxInclusiveAmount', 'BT-112'),
      prepaidCents: optionalCents(totals, 'PrepaidAmount') ?? 0n,
      payableCents: cents(totals, 'PayableAmount', 'BT-115'),
    },
  };
}

// --- CII ---------------------------------------------------------------------------------

function ciiAddress(node: Node | undefined): Address {
  return {
    line1: text(node, 'LineOne'),
    line2: text(node, 'LineTwo'),
    city: text(node, 'CityName'),
    postalCode: text(node, 'PostcodeCode'),
    subdivision: text(node, 'CountrySubDivisionName'),
    country: text(node, 'CountryID') ?? '',
  };
}

function ciiParty(party: Node | undefined): Party {
  const vat = all(party, 'SpecifiedTaxRegistration')
    .map((r) => one(r, 'ID'))
    .find((id) => id?.['@_schemeID'] === 'VA');
  const globalId = one(party, 'GlobalID');
  const legal = one(party, 'SpecifiedLegalOrganization/ID');
  const email = one(party, 'URIUniversalCommunication/URIID');
  return {
    name: text(party, 'Name') ?? '',
    tradingName: text(party, 'SpecifiedLegalOrganization/TradingBusinessName'),
    id: globalId
      ? { value: text(globalId) ?? '', scheme: globalId['@_schemeID'] as string | undefined }
      : text(party, 'ID')
        ? { value: text(party, 'ID')! }
        : undefined,
    legalId: legal
      ? { value: text(legal) ?? '', scheme: legal['@_schemeID'] as string | undefined }
      : undefined,
    vatId: text(vat),
    email:
      email?.['@_schemeID'] === 'EM'
        ? text(email)
        : text(party, 'DefinedTradeContact/EmailURIUniversalCommunication/URIID'),
    address: ciiAddress(one(party, 'PostalTradeAddress')),
  };
}

function ciiCategory(node: Node | undefined): { category: VatCategory; rate: string } {
  return {
    category: category(text(node, 'CategoryCode')),
    rate: decimalText(text(node, 'RateApplicablePercent')) ?? '0',
  };
}

function ciiDate(node: Node | undefined, path: string): string | undefined {
  return isoDate(text(node, `${path}/DateTimeString`));
}

function readCii(root: Node): EInvoice {
  const transaction = one(root, 'SupplyChainTradeTransaction');
  const agreement = one(transaction, 'ApplicableHeaderTradeAgreement');
  const settlement = one(transaction, 'ApplicableHeaderTradeSettlement');
  const currency = text(settlement, 'InvoiceCurrencyCode') ?? '';
  const lines: Line[] = all(transaction, 'IncludedSupplyChainTradeLineItem').map((l) =>
    pricedLine({
      id: text(l, 'AssociatedDocumentLineDocument/LineID') ?? '',
      name: text(l, 'SpecifiedTradeProduct/Name') ?? '',
      description: text(l, 'SpecifiedTradeProduct/Description'),
      sellerItemId: text(l, 'SpecifiedTradeProduct/SellerAssignedID'),
      quantity: decimalText(text(l, 'SpecifiedLineTradeDelivery/BilledQuantity')) ?? '1',
      unitCode: attribute(l, 'SpecifiedLineTradeDelivery/BilledQuantity', 'unitCode') ?? 'C62',
      price: text(l, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount'),
      netCents: cents(
        l,
        'SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount',
        'BT-131',
      ),
      vat: ciiCategory(one(l, 'SpecifiedLineTradeSettlement/ApplicableTradeTax')),
    }),
  );
  for (const charge of all(settlement, 'SpecifiedTradeAllowanceCharge')) {
    const isCharge = text(charge, 'ChargeIndicator/Indicator') === 'true';
    const value = cents(charge, 'ActualAmount', isCharge ? 'BT-99' : 'BT-92');
    lines.push({
      id: `${isCharge ? 'charge' : 'allowance'}-${lines.length + 1}`,
      name: text(charge, 'Reason') ?? (isCharge ? 'Charge' : 'Allowance'),
      quantity: isCharge ? '1' : '-1',
      unitCode: 'C62',
      priceCents: value,
      netCents: isCharge ? value : -value,
      vat: ciiCategory(one(charge, 'CategoryTradeTax')),
    });
  }
  const vat: VatBreakdown[] = all(settlement, 'ApplicableTradeTax').map((t) => ({
    ...ciiCategory(t),
    baseCents: cents(t, 'BasisAmount', 'BT-116'),
    taxCents: cents(t, 'CalculatedAmount', 'BT-117'),
    exemption: { code: text(t, 'ExemptionReasonCode'), text: text(t, 'ExemptionReason') },
  }));
  const sums = one(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const preceding = one(settlement, 'InvoiceReferencedDocument');
  const means = one(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const terms = one(settlement, 'SpecifiedTradePaymentTerms');
  const type = text(root, 'ExchangedDocument/TypeCode');
  return {
    typeCode: type === '381' ? '381' : '380',
    number: text(root, 'ExchangedDocument/ID') ?? '',
    issueDate: ciiDate(one(root, 'ExchangedDocument'), 'IssueDateTime') ?? '',
    dueDate: ciiDate(terms, 'DueDateDateTime'),
    currency,
    buyerReference: text(agreement, 'BuyerReference'),
    orderReference: text(agreement, 'BuyerOrderReferencedDocument/IssuerAssignedID'),
    precedingInvoice: preceding
      ? {
          number: text(preceding, 'IssuerAssignedID') ?? '',
          issueDate: ciiDate(preceding, 'FormattedIssueDateTime'),
        }
      : undefined,
    notes: all(one(root, 'ExchangedDocument'), 'IncludedNote').map((n) => ({
      subject: text(n, 'SubjectCode'),
      text: text(n, 'Content') ?? '',
    })),
    seller: ciiParty(one(agreement, 'SellerTradeParty')),
    buyer: ciiParty(one(agreement, 'BuyerTradeParty')),
    payment: means
      ? {
          meansCode: text(means, 'TypeCode') ?? '',
          reference: text(settlement, 'PaymentReference'),
          iban: text(means, 'PayeePartyCreditorFinancialAccount/IBANID'),
          bic: text(means, 'PayeeSpecifiedCreditorFinancialInstitution/BICID'),
        }
      : undefined,
    paymentTerms: text(terms, 'Description'),
    lines,
    vat,
    totals: {
      lineNetCents: cents(sums, 'LineTotalAmount', 'BT-106'),
      taxExclusiveCents: cents(sums, 'TaxBasisTotalAmount', 'BT-109'),
      taxCents:
        centsOf(
          text(
            all(sums, 'TaxTotalAmount').find((t) => t['@_currencyID'] === currency) ??
              all(sums, 'TaxTotalAmount')[0],
          ),
        ) ?? 0n,
      taxInclusiveCents: cents(sums, 'GrandTotalAmount', 'BT-112'),
      prepaidCents: optionalCents(sums, 'TotalPrepaidAmount') ?? 0n,
      payableCents: cents(sums, 'DuePayableAmount', 'BT-115'),
    },
  };
}

/** Reads a UBL Invoice or CreditNote, or a CII invoice; anything else is an `XmlError`. */
export function readInvoice(xml: string): EInvoice {
  const syntax = syntaxOf(xml);
  if (!syntax) throw new XmlError('not a UBL 2.1 Invoice or CreditNote, nor a CII D16B invoice');
  const document = parse(xml);
  if (syntax === 'cii') {
    const root = one(document, 'CrossIndustryInvoice');
    if (!root) throw new XmlError('the root is not rsm:CrossIndustryInvoice');
    return readCii(root);
  }
  const invoice = one(document, 'Invoice');
  const credit = one(document, 'CreditNote');
  if (!invoice && !credit) throw new XmlError('the root is neither Invoice nor CreditNote');
  return readUbl((invoice ?? credit)!, !invoice);
}
