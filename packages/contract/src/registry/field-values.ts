import type { Field } from './fields';

/**
 * What a value of each field type is, as text (URL filters, cursors, JSON strings): the one
 * definition the body schemas and the portal's URL parser share. Each rule accepts only what
 * PostgreSQL stores exactly in the field's column (a value it would refuse, round or shift
 * must be a 400 before any SQL runs), and only the API's spellings of it.
 */

/** numeric(18,6): up to 12 digits before the point and 6 after. */
export const DECIMAL_PATTERN = /^-?\d{1,12}(\.\d{1,6})?$/;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER_PATTERN = /^-?\d{1,16}$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 with an offset, seconds optional; also PostgreSQL's own output (space, `+00`), which cursors carry. */
const TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?)$/;

const INT4 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
/** Money is an integer of minor units in JSON: within the numbers JSON clients hold exactly. */
const SAFE = { min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) };
/** A code unit of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** PostgreSQL refuses offsets beyond ±15:59:59 (22009). */
const MAX_OFFSET_HOURS = 15;
const SECONDS_PER_DAY = 86_400;
/** Stored instants stay within years 0001–9999 in UTC, so PostgreSQL writes them back in four digits without `BC`. */
const FIRST_SECOND = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY;
const END_SECOND = daysFromCivil(10_000, 1, 1) * SECONDS_PER_DAY;

/** Checks one text value of a field; returns it as PostgreSQL should receive it, or undefined. */
export type FieldValueParser = (raw: string, field: Field) => string | undefined;

const accept = (ok: boolean, value: string) => (ok ? value : undefined);

/** The text form of each type's values; field-types.ts gives each type its parser. */
export const parseText: FieldValueParser = (raw, field) =>
  accept(isStorableText(raw) && raw.length <= maxLength(field), raw);
export const parseEnum: FieldValueParser = (raw, field) =>
  accept(field.type === 'enum' && field.values.includes(raw), raw);
export const parseInteger: FieldValueParser = (raw) => accept(isIntegerIn(raw, INT4), raw);
export const parseMoney: FieldValueParser = (raw) => accept(isIntegerIn(raw, SAFE), raw);
export const parseDecimal: FieldValueParser = (raw) => accept(DECIMAL_PATTERN.test(raw), raw);
export const parseBoolean: FieldValueParser = (raw) =>
  accept(raw === 'true' || raw === 'false', raw);
export const parseDate: FieldValueParser = (raw) => accept(isDate(raw), raw);
export const parseTimestamp: FieldValueParser = (raw) => accept(isTimestamp(raw), raw);
export const parseUuid: FieldValueParser = (raw) => (isUuid(raw) ? raw.toLowerCase() : undefined);

/** A decimal sent as a JSON number: finite and within numeric(18,6) once rounded to 6 places. */
export function isDecimalNumber(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) < 1e12;
}

/** No NUL (PostgreSQL text cannot hold it) and no unpaired surrogate (UTF-8 cannot encode it). */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** `YYYY-MM-DD`, a real calendar day of years 0001–9999 (PostgreSQL has no year 0). */
export function isDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  return m !== null && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * RFC 3339 with a mandatory offset (`Z`, `±HH:MM`, also `±HH`, `±HHMM`, `±HH:MM:SS`), at most
 * microseconds, a real calendar day and time of day (no hour 24, no leap second), an offset
 * PostgreSQL accepts, and an instant within years 0001–9999 in UTC.
 */
export function isTimestamp(value: string): boolean {
  const m = TIMESTAMP_PATTERN.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const [offsetH, offsetM, offsetS] = [8, 9, 10].map((i) => Number(m[i] ?? 0));
  if (!isCalendarDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59)
    return false;
  if (offsetH! > MAX_OFFSET_HOURS || offsetM! > 59 || offsetS! > 59) return false;
  const offset = (m[7] === '-' ? -1 : 1) * (offsetH! * 3600 + offsetM! * 60 + offsetS!);
  const utc =
    daysFromCivil(year!, month!, day!) * SECONDS_PER_DAY +
    hour! * 3600 +
    minute! * 60 +
    second! -
    offset;
  return utc >= FIRST_SECOND && utc < END_SECOND;
}

/** A text field's bound: no row holds a longer value, so no filter or cursor needs one. */
function maxLength(field: Field): number {
  return 'maxLength' in field ? field.maxLength : Number.POSITIVE_INFINITY;
}

function isIntegerIn(raw: string, range: { min: bigint; max: bigint }): boolean {
  if (!INTEGER_PATTERN.test(raw)) return false;
  const n = BigInt(raw);
  return n >= range.min && n <= range.max;
}

/** Whether a string is a UUID (any case): decides id-or-slug lookups before they reach a uuid column. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
