/**
 * Quantities as the API sends them (decimal strings, `"12.5"`), in exact arithmetic: millionths
 * as BigInt, the portal's own precision, so what remains of a line is what the portal checks.
 */

const SCALE = 6;
const UNIT = 10n ** BigInt(SCALE);
const DECIMAL = /^\s*(\d*)(?:\.(\d*))?\s*$/;

/** A non-negative decimal as millionths; `undefined` when it is not one (or too precise). */
export function parseQuantity(text: unknown): bigint | undefined {
  if (typeof text === 'number') return parseQuantity(String(text));
  if (typeof text !== 'string') return undefined;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (!whole && !fraction) return undefined;
  if (fraction.replace(/0+$/, '').length > SCALE) return undefined;
  return BigInt(whole || '0') * UNIT + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, '0'));
}

/** Millionths as the shortest decimal (`12500000n` → `12.5`). */
export function formatQuantity(millionths: bigint): string {
  const sign = millionths < 0n ? '-' : '';
  const magnitude = millionths < 0n ? -millionths : millionths;
  const whole = magnitude / UNIT;
  const fraction = (magnitude % UNIT).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** What is left of `quantity` once `taken` is counted, never below zero (`"10"`, `"4"` → `"6"`). */
export function remainingOf(quantity: unknown, taken: unknown): string {
  const left = (parseQuantity(quantity) ?? 0n) - (parseQuantity(taken) ?? 0n);
  return formatQuantity(left > 0n ? left : 0n);
}
