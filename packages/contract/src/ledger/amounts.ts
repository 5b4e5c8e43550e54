/**
 * Exact amounts (SPEC §17): money is integer cents, quantities and rates are decimal strings
 * (at most 6 decimals, as the `decimal` field type stores them). Products and quotients are
 * computed on BigInt millionths and rounded once, half away from zero (half up for positive
 * amounts, symmetric for credits), so no binary floating point ever touches an amount.
 */

const SCALE = 1_000_000n;
const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,6}))?$/;

/** A decimal string (or a number written the same way) as an exact count of millionths. */
export function toMillionths(value: string | number): bigint {
  const match = DECIMAL.exec(String(value).trim());
  if (!match) throw new RangeError(`not a decimal with at most 6 decimals: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  const millionths = BigInt(whole!) * SCALE + BigInt(fraction.padEnd(6, '0'));
  return sign ? -millionths : millionths;
}

/** `numerator / denominator`, rounded half away from zero (denominator > 0). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('the denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
}

/** quantity × unit price, in cents, rounded once. */
export function lineNetCents(quantity: string | number, unitPriceCents: number | bigint): bigint {
  return divideRounded(toMillionths(quantity) * BigInt(unitPriceCents), SCALE);
}

/** The tax of a net amount at a rate in percent, rounded once. */
export function taxCents(netCents: bigint, ratePercent: string | number): bigint {
  return divideRounded(netCents * toMillionths(ratePercent), 100n * SCALE);
}

/** An amount in a document's currency converted at `rate` (company currency per unit). */
export function convertCents(cents: bigint | number, rate: string | number): bigint {
  return divideRounded(BigInt(cents) * toMillionths(rate), SCALE);
}

/** A BigInt amount of cents as a JavaScript number, refused beyond the safe integers. */
export function centsNumber(cents: bigint): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < BigInt(Number.MIN_SAFE_INTEGER))
    throw new RangeError(`amount out of range: ${cents}`);
  return Number(cents);
}

/** A line of a priced document, as far as its amounts go. */
export interface PricedLine {
  quantity: string | number;
  unit_price_cents: number;
  /** The rate in percent that applies to the line (from its tax on the document's date, or typed). */
  tax_rate: string | number;
  /** The tax the rate belongs to, when the line names one. */
  tax_id?: string | null;
  /** The product, whose own accounts a posting may use. */
  product_id?: string | null;
}

/** The tax of one rate of one tax: its base (Σ nets) and its amount, rounded once. */
export interface TaxBreakdown {
  tax_id: string | null;
  rate: string;
  base_cents: number;
  tax_cents: number;
}

export interface DocumentTotals {
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
  lines_net_cents: number[];
  taxes: TaxBreakdown[];
}

/**
 * A document's totals: each line's net rounded once; tax per document and per (tax, rate) on
 * the sum of the nets, rounded once (not per line): 3 × 1.05 € at 5.5 % is 0.17 €, not 0.18 €.
 */
export function documentTotals(lines: readonly PricedLine[]): DocumentTotals {
  const nets = lines.map((line) => lineNetCents(line.quantity, line.unit_price_cents));
  const groups = new Map<string, { tax_id: string | null; rate: string; base: bigint }>();
  lines.forEach((line, i) => {
    const rate = canonicalDecimal(line.tax_rate);
    const taxId = line.tax_id ?? null;
    const key = `${taxId ?? ''}|${rate}`;
    const group = groups.get(key) ?? { tax_id: taxId, rate, base: 0n };
    group.base += nets[i]!;
    groups.set(key, group);
  });
  const taxes = [...groups.values()].map((g) => ({
    tax_id: g.tax_id,
    rate: g.rate,
    base_cents: centsNumber(g.base),
    tax_cents: centsNumber(taxCents(g.base, g.rate)),
  }));
  const subtotal = nets.reduce((a, b) => a + b, 0n);
  const tax = taxes.reduce((a, t) => a + BigInt(t.tax_cents), 0n);
  return {
    subtotal_cents: centsNumber(subtotal),
    tax_cents: centsNumber(tax),
    total_cents: centsNumber(subtotal + tax),
    lines_net_cents: nets.map(centsNumber),
    taxes,
  };
}

/** A decimal's canonical text: `20`, `5.5`, `-0.25` (no trailing zeros, no `-0`). */
export function canonicalDecimal(value: string | number): string {
  return fromMillionths(toMillionths(value));
}

/** Millionths as a decimal's canonical text. */
export function fromMillionths(millionths: bigint): string {
  const negative = millionths < 0n;
  const magnitude = negative ? -millionths : millionths;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(6, '0').replace(/0+$/, '');
  return `${negative && magnitude !== 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
