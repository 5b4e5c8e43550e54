/**
 * One model of an electronic invoice (EN 16931-1, the semantic model): the business terms
 * (BT-n) and groups (BG-n) the product writes and reads. UBL 2.1, CII D16B and Factur-X are
 * three serializations of it (`ubl.ts`, `cii.ts`, `facturx.ts`); nothing else knows their XML.
 *
 * Amounts are integer minor units (`bigint`, never binary floating point), quantities and
 * rates decimal strings, dates ISO `YYYY-MM-DD`.
 */

import type { VatCategory } from '@erp/contract/vat';

export {
  CATEGORIES_WITH_REASON,
  DEFAULT_EXEMPTION,
  VAT_CATEGORIES,
  VAT_CATEGORY_NAMES,
  type VatCategory,
} from '@erp/contract/vat';

/** A postal address (BG-5, BG-8, BG-15). */
export interface Address {
  line1?: string | undefined;
  line2?: string | undefined;
  city?: string | undefined;
  postalCode?: string | undefined;
  subdivision?: string | undefined;
  /** ISO 3166-1 alpha-2 (BT-40, BT-55, BT-80). */
  country: string;
}

/** The seller (BG-4) or the buyer (BG-7). */
export interface Party {
  /** Legal name (BT-27, BT-44). */
  name: string;
  /** Trading name (BT-28, BT-45). */
  tradingName?: string | undefined;
  /** Identifier (BT-29, BT-46) with its ISO 6523 scheme: `0009` for a SIRET. */
  id?: { value: string; scheme?: string | undefined } | undefined;
  /** Legal registration (BT-30, BT-47): `0002` for a SIREN. */
  legalId?: { value: string; scheme?: string | undefined } | undefined;
  /** VAT identifier (BT-31, BT-48). */
  vatId?: string | undefined;
  /** Additional legal information (BT-33): legal form, capital, registry. */
  legalInfo?: string | undefined;
  /** Electronic address (BT-34, BT-49), an e-mail (scheme `EM`). */
  email?: string | undefined;
  address: Address;
}

/** A line (BG-25). */
export interface Line {
  /** BT-126. */
  id: string;
  /** Item name (BT-153). */
  name: string;
  /** Item description (BT-154). */
  description?: string | undefined;
  /** Seller's item identifier (BT-155). */
  sellerItemId?: string | undefined;
  /** Invoiced quantity (BT-129), a decimal string, negative for a discount line. */
  quantity: string;
  /** UN/ECE Rec 20 unit code (BT-130). */
  unitCode: string;
  /** Item net price in minor units (BT-146), never negative (BR-27). */
  priceCents: bigint;
  /** Line net amount (BT-131). */
  netCents: bigint;
  /** BT-151, BT-152. */
  vat: { category: VatCategory; rate: string };
}

/** The VAT breakdown of one category and rate (BG-23). */
export interface VatBreakdown {
  category: VatCategory;
  /** BT-119, a decimal string (`"20"`, `"5.5"`). */
  rate: string;
  /** BT-116. */
  baseCents: bigint;
  /** BT-117. */
  taxCents: bigint;
  /** BT-120, BT-121: why no VAT is charged. */
  exemption?: { code?: string | undefined; text?: string | undefined } | undefined;
}

/** A whole invoice or credit note. */
export interface EInvoice {
  /** `380` commercial invoice, `381` credit note (BT-3). */
  typeCode: '380' | '381';
  /** BT-1. */
  number: string;
  /** BT-2. */
  issueDate: string;
  /** BT-9. */
  dueDate?: string | undefined;
  /** BT-5. */
  currency: string;
  /** BT-6, with BT-111: the VAT in the seller's accounting currency, when it differs. */
  vatCurrency?: { code: string; taxCents: bigint } | undefined;
  /** BT-10: the buyer's reference. */
  buyerReference?: string | undefined;
  /** BT-13: the purchase order. */
  orderReference?: string | undefined;
  /** BG-3: the invoice a credit note corrects. */
  precedingInvoice?: { number: string; issueDate?: string | undefined } | undefined;
  /** BG-1: free notes (BT-22) with their subject (BT-21). */
  notes?: { subject?: string | undefined; text: string }[] | undefined;
  seller: Party;
  buyer: Party;
  /** BG-13: the delivery (its date BT-72, the country BT-80). */
  delivery?: { date?: string | undefined; address?: Address | undefined } | undefined;
  /** BG-16: code 58 (SEPA credit transfer) or 30, with the account (BT-84, BT-86). */
  payment?:
    | {
        meansCode: string;
        reference?: string | undefined;
        iban?: string | undefined;
        bic?: string | undefined;
      }
    | undefined;
  /** BT-20. */
  paymentTerms?: string | undefined;
  lines: Line[];
  vat: VatBreakdown[];
  totals: Totals;
}

/** BG-22, without allowances or charges at document level. */
export interface Totals {
  /** BT-106: Σ line nets. */
  lineNetCents: bigint;
  /** BT-109. */
  taxExclusiveCents: bigint;
  /** BT-110. */
  taxCents: bigint;
  /** BT-112. */
  taxInclusiveCents: bigint;
  /** BT-113. */
  prepaidCents: bigint;
  /** BT-115. */
  payableCents: bigint;
}

/** Minor units as the decimal the syntaxes print: `12345n` → `"123.45"`, two decimals. */
export function amount(cents: bigint): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const text = `${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/**
 * A decimal amount read from a document as minor units; `undefined` for anything that is
 * not a decimal of at most two places (a price with more places is read by `priceOf`).
 */
export function centsOf(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*([+-])?(\d+)(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  const cents = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** A decimal's canonical text (`"20.00"` → `"20"`, `"5.50"` → `"5.5"`), or undefined. */
export function decimalText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*([+-])?(\d+)(?:\.(\d+))?\s*$/.exec(text);
  if (!match) return undefined;
  const whole = match[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const zero = /^0$/.test(whole) && !fraction;
  return `${match[1] === '-' && !zero ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** UN/ECE Recommendation 20 codes of the units people type on lines. */
const UNIT_CODES: Record<string, string> = {
  unit: 'C62',
  units: 'C62',
  u: 'C62',
  pce: 'H87',
  piece: 'H87',
  pieces: 'H87',
  h: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  heure: 'HUR',
  day: 'DAY',
  days: 'DAY',
  jour: 'DAY',
  kg: 'KGM',
  g: 'GRM',
  t: 'TNE',
  m: 'MTR',
  m2: 'MTK',
  m3: 'MTQ',
  l: 'LTR',
  km: 'KMT',
  month: 'MON',
  mois: 'MON',
  year: 'ANN',
  set: 'SET',
  box: 'XBX',
  pack: 'XPK',
};

/** A line's unit as its Rec 20 code (a code typed as such is kept; anything else: C62, one). */
export function unitCode(unit: string | null | undefined): string {
  if (!unit) return 'C62';
  const known = UNIT_CODES[unit.trim().toLowerCase()];
  if (known) return known;
  return /^[A-Z0-9]{2,3}$/.test(unit.trim()) ? unit.trim() : 'C62';
}

/** The unit people read for a Rec 20 code (the reverse of `unitCode`, for imports). */
export function unitName(code: string | undefined): string {
  switch (code) {
    case 'HUR':
      return 'h';
    case 'DAY':
      return 'day';
    case 'KGM':
      return 'kg';
    case 'MTR':
      return 'm';
    case 'LTR':
      return 'l';
    case 'MON':
      return 'month';
    case undefined:
    case 'C62':
    case 'H87':
    case 'EA':
      return 'Unit';
    default:
      return code;
  }
}
