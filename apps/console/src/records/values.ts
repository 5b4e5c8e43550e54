/**
 * Field values between the API's JSON and what people read and type. Amounts are integers of
 * minor units in the API (`total_cents`) and major units on screen, with the exponent of the
 * record's currency (2 for EUR, 0 for JPY); decimals stay strings so nothing is rounded.
 */
import { formatDate, formatDateTime } from '../ui/format';
import type { FieldInfo } from './catalogue-types';

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

/** A value as text for a table cell or a detail line. */
export function displayValue(field: FieldInfo, value: unknown, currency?: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  switch (field.type) {
    case 'money': {
      const digits = currencyDigits(currency);
      const amount = (Number(value) / 10 ** digits).toLocaleString('en-GB', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
      return typeof currency === 'string' && currency ? `${amount} ${currency}` : amount;
    }
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'date':
      return formatDate(String(value));
    case 'timestamp':
      return formatDateTime(String(value));
    case 'lines':
      return `${(value as unknown[]).length} lines`;
    case 'json':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** The text an input starts with for an API value. */
export function toInput(field: FieldInfo, value: unknown, currency?: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'money':
      return (Number(value) / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'timestamp': {
      // datetime-local shows the browser's local time.
      const at = new Date(String(value));
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    }
    case 'json':
      return JSON.stringify(value, null, 2);
    default:
      return String(value);
  }
}

/**
 * An input's text as the API value: undefined for an empty input (the field is left out, or
 * cleared with null on edit), or what the API expects. Text the API will refuse is sent as
 * typed, so the refusal comes back with the portal's own message next to the field.
 */
export function fromInput(field: FieldInfo, text: string, currency?: unknown): unknown {
  const trimmed = field.type === 'text' ? text : text.trim();
  if (trimmed === '') return undefined;
  switch (field.type) {
    case 'integer': {
      const n = Number(trimmed);
      return Number.isFinite(n) ? n : trimmed;
    }
    case 'money': {
      const n = Number(trimmed.replace(/[\s,]/g, ''));
      return Number.isFinite(n) ? Math.round(n * 10 ** currencyDigits(currency)) : trimmed;
    }
    case 'boolean':
      return trimmed === 'true';
    case 'timestamp': {
      const at = new Date(trimmed);
      return Number.isNaN(at.getTime()) ? trimmed : at.toISOString();
    }
    case 'json':
      try {
        return JSON.parse(trimmed);
      } catch {
        return trimmed;
      }
    default:
      return trimmed;
  }
}
