import { ApiError, BATCH_REFERENCE } from '@erp/contract';

/** `{{<index>.<field>}}` in an operation: the earlier result it reads, and where in it. */
export interface Reference {
  text: string;
  index: number;
  path: string[];
}

/** Reads a reference's value from the results so far; throws `invalid_reference` if it cannot. */
export type Lookup = (reference: Reference) => unknown;

const WHOLE = new RegExp(`^${BATCH_REFERENCE.source}$`);

/** The references of a text, escaped ones (`\{{`) left out. */
export function referencesIn(text: string): Reference[] {
  if (!text.includes('{{')) return [];
  return [...text.matchAll(BATCH_REFERENCE)]
    .filter((m) => m[1] === '')
    .map((m) => ({ text: m[0].slice(m[1]!.length), index: Number(m[2]), path: m[3]!.split('.') }));
}

/** Every reference in a JSON value's strings. */
export function referencesInValue(value: unknown): Reference[] {
  if (typeof value === 'string') return referencesIn(value);
  if (Array.isArray(value)) return value.flatMap(referencesInValue);
  if (value !== null && typeof value === 'object')
    return Object.values(value).flatMap(referencesInValue);
  return [];
}

/** A path with each reference replaced by its value's text, percent-encoded: a value can fill a segment or a query value, never change which route it is. */
export function fillPath(path: string, lookup: Lookup): string {
  return replaceIn(path, lookup, encodeURIComponent);
}

/**
 * A body with its references filled: a string that is exactly one reference becomes the value
 * itself, with its JSON type (a number stays a number, null stays null, an object an object);
 * a reference inside a longer string is replaced by its text.
 */
export function fillBody(value: unknown, lookup: Lookup): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole && whole[1] === '') {
      return lookup({ text: value, index: Number(whole[2]), path: whole[3]!.split('.') });
    }
    return replaceIn(value, lookup, (text) => text);
  }
  if (Array.isArray(value)) return value.map((item) => fillBody(item, lookup));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillBody(v, lookup)]));
  }
  return value;
}

function replaceIn(text: string, lookup: Lookup, encode: (text: string) => string): string {
  if (!text.includes('{{')) return text;
  return text.replace(BATCH_REFERENCE, (match, backslash: string, index: string, path: string) => {
    if (backslash) return match.slice(backslash.length);
    const reference = { text: match, index: Number(index), path: path.split('.') };
    const value = lookup(reference);
    if (typeof value === 'string') return encode(value);
    if (typeof value === 'number' || typeof value === 'boolean') return encode(String(value));
    throw invalidReference(
      reference,
      'not_text',
      `${reference.text} is ${value === null ? 'null' : 'not text'}: only a string, number or boolean can stand inside a longer string.`,
    );
  });
}

/**
 * The value at `reference.path` in `result` (own properties and array positions only), or
 * `invalid_reference` when the result has no such field.
 */
export function valueAt(result: unknown, reference: Reference): unknown {
  let value = result;
  for (const key of reference.path) {
    const holds =
      value !== null &&
      typeof value === 'object' &&
      (Array.isArray(value)
        ? /^\d+$/.test(key) && Number(key) < value.length
        : Object.hasOwn(value, key));
    if (!holds) {
      throw invalidReference(
        reference,
        'missing',
        `The answer to operation ${reference.index} has no ${reference.path.join('.')}.`,
      );
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** `requete_invalide` naming the reference and what is wrong with it (`later`, `missing`, `not_text`). */
export function invalidReference(reference: Reference, problem: string, message: string): ApiError {
  return new ApiError('requete_invalide', message, {
    reason: 'invalid_reference',
    reference: reference.text,
    problem,
  });
}
