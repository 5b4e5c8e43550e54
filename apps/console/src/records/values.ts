/**
 * Field values between the API's JSON and what people read and type: the empty cases here,
 * each type's own conversion in its row of the field-kind table (field-kinds.ts).
 */
import type { FieldInfo } from './catalogue-types';
import { kindOf } from './field-kinds';

/** A value as text for a table cell or a detail line. */
export function displayValue(field: FieldInfo, value: unknown, currency?: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return kindOf(field).format(value, currency);
}

/** The text an input starts with for an API value. */
export function toInput(field: FieldInfo, value: unknown, currency?: unknown): string {
  if (value === null || value === undefined) return '';
  return kindOf(field).toInput(value, currency);
}

/**
 * An input's text as the API value: undefined for an empty input (the field is left out, or
 * cleared with null on edit), or what the API expects. Text the API will refuse is sent as
 * typed, so the refusal comes back with the portal's own message next to the field.
 */
export function fromInput(field: FieldInfo, text: string, currency?: unknown): unknown {
  const kind = kindOf(field);
  const trimmed = kind.trims ? text.trim() : text;
  if (trimmed === '') return undefined;
  return kind.fromInput(trimmed, currency);
}
