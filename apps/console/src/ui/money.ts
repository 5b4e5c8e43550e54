/**
 * Amounts between the API's integer minor units (`total_cents`) and what people read and type,
 * in exact decimal: BigInt and string arithmetic, never a division of binary floats, so a
 * trial balance of millions shows the last cent as the ledger holds it.
 */

const digitsCache = new Map<string, number>();

/** Decimal places of an ISO 4217 currency (2 when unknown). */
export function currencyDigits(currency: unknown): number {
  const code =
    typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : 'EUR';
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    digitsCache.set(code, digits);
  }
  return digits;
}

/** An integer amount from the API (a number, or a string of digits) as a BigInt. */
function toBigInt(cents: number | bigint | string): bigint {
  if (typeof cents === 'bigint') return cents;
  if (typeof cents === 'number' && !Number.isSafeInteger(cents))
    throw new RangeError(`not an integer amount: ${cents}`);
  return BigInt(cents);
}

/**
 * Minor units as a plain decimal in major units: `123456` EUR → `1234.56`, `-5` → `-0.05`,
 * `1250` JPY → `1250`. What a form input starts with.
 */
export function centsToDecimal(cents: number | bigint | string, currency?: unknown): string {
  const value = toBigInt(cents);
  const digits = currencyDigits(currency);
  const magnitude = (value < 0n ? -value : value).toString().padStart(digits + 1, '0');
  const whole = magnitude.slice(0, magnitude.length - digits);
  const fraction = magnitude.slice(magnitude.length - digits);
  return `${value < 0n ? '-' : ''}${whole}${digits ? `.${fraction}` : ''}`;
}

/**
 * Minor units as people read them in a column whose currency is said once: thousands grouped,
 * the currency's decimals (`1,234.56`, `-0.05`).
 */
export function formatAmount(cents: number | bigint | string, currency?: unknown): string {
  const plain = centsToDecimal(cents, currency);
  const [signed = '', fraction] = plain.split('.');
  const sign = signed.startsWith('-') ? '-' : '';
  const whole = signed.replace('-', '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** An amount with its currency's code after it, when given (`1,234.56 EUR`). */
export function formatCents(cents: number | bigint | string, currency?: unknown): string {
  const amount = formatAmount(cents, currency);
  return typeof currency === 'string' && currency ? `${amount} ${currency}` : amount;
}

const TYPED = /^(-)?(\d*)(?:\.(\d*))?$/;

/**
 * What a person typed (`1 250.5`, `1,250.50`, `12`) as minor units of `currency`, rounded half
 * away from zero beyond the currency's decimals; `undefined` when it is not an amount.
 */
export function parseAmount(text: string, currency?: unknown): bigint | undefined {
  const match = TYPED.exec(text.replace(/[\s,]/g, ''));
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  if (!whole && !fraction) return undefined;
  const digits = currencyDigits(currency);
  const kept = BigInt(`${whole || '0'}${fraction.slice(0, digits).padEnd(digits, '0')}`);
  const roundsUp = (fraction[digits] ?? '0') >= '5';
  const magnitude = roundsUp ? kept + 1n : kept;
  return sign ? -magnitude : magnitude;
}
