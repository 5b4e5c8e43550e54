/**
 * What the console does with each field type, in one row per type: the form's control, how a
 * value is shown and how it goes to and from an input, the filter's value input, the hint.
 * Keyed by the contract's own type list (a type-only import: nothing of the contract is
 * bundled), so a type added there fails to compile here until it has its row. The pages read
 * these columns; none of them names a field type.
 */
import type { FieldType } from '@erp/contract/fields';
import { formatDate, formatDateTime } from '../ui/format';
import { centsToDecimal, formatCents, parseAmount } from '../ui/money';
import type { FieldInfo } from './catalogue-types';

export interface FieldKind {
  /**
   * The form's control (field-input.tsx): `text` an input (a text area beyond 500 characters),
   * `decimal` a text input with the decimal keypad, `choice` a select of `choices`, `lines`
   * its own group of inputs per line (lines-input.tsx).
   */
  control:
    | 'text'
    | 'email'
    | 'integer'
    | 'decimal'
    | 'date'
    | 'datetime'
    | 'choice'
    | 'reference'
    | 'json'
    | 'lines';
  /** The values a `choice` control and an equality filter offer, as the API's text. */
  choices?(field: FieldInfo): { value: string; label: string }[];
  /**
   * How a record shows it: `text` (from `format`), `reference` the referenced record's label,
   * linked, `lines` a table of its lines below the other fields.
   */
  shown: 'text' | 'reference' | 'lines';
  /** A value (never null) as text in a list cell, on a record page and in its history. */
  format(value: unknown, currency: unknown): string;
  /** A value (never null) as the text a form input starts with. */
  toInput(value: unknown, currency: unknown): string;
  /** An input's text (never empty) as the value the API expects; what it cannot read, as typed. */
  fromInput(text: string, currency: unknown): unknown;
  /** Whether spaces around what is typed are dropped (text keeps them: they may mean something). */
  trims: boolean;
  /** The form's hint under the field, instead of the field's description. */
  hint?: string;
  /** A filter's value: its input type (but `in` takes a list as text) and placeholder. */
  filter: { input: 'text' | 'date'; placeholder?: string };
  /** What `is` may compare with. */
  isValues: readonly string[];
  /** Whether a list may show it as a column. */
  listed: boolean;
  /** Whether its cells are right-aligned as numbers, in a list and in a lines table. */
  numeric: { list: boolean; lines: boolean };
  /** Whether a field of this type may name a record (titles, lists, reference pickers). */
  names: boolean;
  /** What a label says in brackets when two fields would read the same (else the type's name). */
  qualifier?: string;
}

const NULL_ONLY = ['null'] as const;
const NOT_NUMERIC = { list: false, lines: false };

/** The usual row: a single-line text, shown and typed as its own text. */
const PLAIN = {
  control: 'text',
  shown: 'text',
  format: (value) => String(value),
  toInput: (value) => String(value),
  fromInput: (text) => text,
  trims: true,
  filter: { input: 'text' },
  isValues: NULL_ONLY,
  listed: true,
  numeric: NOT_NUMERIC,
  names: false,
} satisfies FieldKind;

export { currencyDigits } from '../ui/money';

const number = (text: string) => {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};

const isInteger = (value: unknown): value is number | string =>
  (typeof value === 'number' && Number.isSafeInteger(value)) ||
  (typeof value === 'string' && /^-?\d+$/.test(value));
const isSafe = (cents: bigint) =>
  cents <= BigInt(Number.MAX_SAFE_INTEGER) && cents >= BigInt(Number.MIN_SAFE_INTEGER);
/** An amount of minor units; anything else (a value the API never sends) as it is. */
const formatMoney = (value: unknown, currency: unknown) =>
  isInteger(value) ? formatCents(value, currency) : String(value);

/** The table. */
export const FIELD_KINDS: Record<FieldType, FieldKind> = {
  text: { ...PLAIN, trims: false, names: true, qualifier: 'name' },
  email: { ...PLAIN, control: 'email', names: true },
  enum: {
    ...PLAIN,
    control: 'choice',
    choices: (field) => (field.values ?? []).map((v) => ({ value: v, label: v })),
  },
  integer: { ...PLAIN, control: 'integer', fromInput: number },
  // Integers of minor units in the API (`total_cents`), major units on screen, with the
  // exponent of the record's currency (2 for EUR, 0 for JPY).
  money: {
    ...PLAIN,
    control: 'decimal',
    format: (value, currency) => formatMoney(value, currency),
    toInput: (value, currency) =>
      isInteger(value) ? centsToDecimal(value, currency) : String(value),
    fromInput: (text, currency) => {
      const cents = parseAmount(text, currency);
      return cents !== undefined && isSafe(cents) ? Number(cents) : text;
    },
    hint: 'Amount in the document’s currency, e.g. 1250.00.',
    filter: { input: 'text', placeholder: 'in cents' },
    numeric: { list: true, lines: true },
  },
  // Strings in the API and on screen, so nothing is rounded.
  decimal: { ...PLAIN, control: 'decimal', numeric: { list: false, lines: true } },
  boolean: {
    ...PLAIN,
    control: 'choice',
    choices: () => [
      { value: 'true', label: 'Yes' },
      { value: 'false', label: 'No' },
    ],
    format: (value) => (value ? 'Yes' : 'No'),
    toInput: (value) => (value ? 'true' : 'false'),
    fromInput: (text) => text === 'true',
    isValues: ['null', 'true', 'false'],
  },
  date: {
    ...PLAIN,
    control: 'date',
    format: (value) => formatDate(String(value)),
    filter: { input: 'date' },
  },
  timestamp: {
    ...PLAIN,
    control: 'datetime',
    format: (value) => formatDateTime(String(value)),
    toInput: (value) => {
      // datetime-local shows the browser's local time.
      const at = new Date(String(value));
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    },
    fromInput: (text) => {
      const at = new Date(text);
      return Number.isNaN(at.getTime()) ? text : at.toISOString();
    },
    filter: { input: 'text', placeholder: '2026-01-31T00:00:00Z' },
  },
  uuid: PLAIN,
  reference: { ...PLAIN, control: 'reference', shown: 'reference' },
  lines: {
    ...PLAIN,
    control: 'lines',
    shown: 'lines',
    format: (value) => `${(value as unknown[]).length} lines`,
    listed: false,
  },
  json: {
    ...PLAIN,
    control: 'json',
    format: (value) => JSON.stringify(value),
    toInput: (value) => JSON.stringify(value, null, 2),
    fromInput: (text) => {
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    },
    hint: 'A JSON object.',
    listed: false,
  },
};

/** A field's row. */
export function kindOf(field: { type: FieldType }): FieldKind {
  return FIELD_KINDS[field.type];
}
