import type { Field, FieldType } from '@erp/contract';

/**
 * Malformed values per field type for the fuzz test: first what a URL filter or a cursor may
 * carry, then what a JSON body may. Most pass a naive regular expression (or JavaScript's
 * Date) and are still not values PostgreSQL stores: those found the 500s of issue 12.
 */

const DATES = [
  '0000-01-01',
  '2026-02-30',
  '2026-02-29',
  '1900-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-04-31',
  '10000-01-01',
  '2026-1-1',
  'today',
  'infinity',
  '2026-01-01 BC',
  '2026-01-01T00:00:00Z',
];
const TIMESTAMPS = [
  '2026-02-30T00:00:00Z',
  '2026-02-31T23:59:59Z',
  '0000-01-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T25:00:00Z',
  '2026-01-01T23:59:60Z',
  '2026-01-01T10:00:00+15:60',
  '2026-01-01T10:00:00+16:00',
  '2026-01-01T10:00:00+24:00',
  '2026-01-01T10:00:00+99:99',
  '2026-01-01T10:00:00.1234567Z',
  '2026-01-01T10:00:00',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:00:00-05:00',
  'now',
  'epoch',
];
const DECIMALS = [
  '1e3',
  '1000000000000',
  '0.1234567',
  'NaN',
  'Infinity',
  '.5',
  '1.',
  '1,5',
  '0x10',
  '-',
];
const INTEGERS = [
  '2147483648',
  '-2147483649',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '1_000',
  'NaN',
];
const MONEY = ['9007199254740992', '9223372036854775808', '-9223372036854775809', '1.5', '1e3'];
const UUIDS = [
  'not-a-uuid',
  '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a1',
  '{0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11}',
  '0b6f4c523f0e4c7e9a397d1f0f3b2a11',
  'g0000000-0000-0000-0000-000000000000',
  "' OR '1'='1",
];

/** Text values no type accepts in a URL: NUL, over the 1000-character bound. */
const UNSTORABLE_TEXT = ['a\u0000b', '\u0000', 'x'.repeat(1001)];

/** Values a URL filter or cursor of this type must refuse. */
export function badUrlValues(field: Field): string[] {
  const byType: Record<FieldType, string[]> = {
    text: UNSTORABLE_TEXT,
    email: UNSTORABLE_TEXT,
    enum: ['', 'NOPE', field.type === 'enum' ? `${field.values[0]} ` : 'x', '\u0000'],
    integer: INTEGERS,
    money: MONEY,
    decimal: DECIMALS,
    boolean: ['TRUE', '1', 't', 'yes', ''],
    date: DATES,
    timestamp: TIMESTAMPS,
    uuid: UUIDS,
    reference: UUIDS,
    lines: ['[]'],
    json: ['{}'],
  };
  const typed = byType[field.type];
  // Empty is a text value; for every other type it is none.
  return field.type === 'text' || field.type === 'email'
    ? typed
    : [...typed, '', ...UNSTORABLE_TEXT];
}

/**
 * Names every object inherits: as query names (filters, order, select, embed), as body keys and
 * as batch query names they must be unknown names like any other, never an inherited member
 * (`?__proto__=1` in a batch path once answered 500).
 */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

/** Values any filter may carry without being wrong for every type: junk that must never break anything. */
export const ODD_URL_VALUES = [
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '"quoted"',
  '(a,b)',
  'a,b',
  '*',
  '\\*',
  '\\',
  "'; DROP TABLE events; --",
  'Réunion été 🚀',
  '\u202e\u200b',
  ' ',
];

/** Values a JSON body must not carry in a field of this type. */
export function badBodyValues(field: Field): unknown[] {
  const common: unknown[] = [[], {}, [null], { $ne: 1 }];
  if (field.required) common.push(null);
  switch (field.type) {
    case 'text':
      return [
        ...common,
        123,
        true,
        'x'.repeat(field.maxLength + 1),
        'a\u0000b',
        'lone \ud800',
        '\udc00',
        ...(field.required ? [''] : []),
      ];
    case 'email':
      return [
        ...common,
        'not-an-email',
        'a@',
        `${'x'.repeat(300)}@example.test`,
        5,
        'a\u0000@b.test',
      ];
    case 'enum':
      return [...common, 'NOPE', '', 5, `${field.values[0]} `, field.values[0].toUpperCase() + '!'];
    case 'integer':
      return [
        ...common,
        2_147_483_648,
        -2_147_483_649,
        1.5,
        '1',
        1e308,
        -1e308,
        true,
        ...(field.min !== undefined ? [field.min - 1] : []),
        ...(field.max !== undefined ? [field.max + 1] : []),
      ];
    case 'money':
      return [
        ...common,
        9_007_199_254_740_992,
        -1e20,
        1.5,
        '100',
        1e308,
        ...(field.min !== undefined ? [field.min - 1] : []),
      ];
    case 'decimal':
      return [
        ...common,
        ...DECIMALS,
        '',
        1e12,
        -1e15,
        1e308,
        true,
        ...(field.min !== undefined ? [String(field.min - 1), field.min - 0.5] : []),
        ...(field.max !== undefined ? [String(field.max + 1)] : []),
      ];
    case 'boolean':
      return [...common, 'true', 1, 0, 'yes'];
    case 'date':
      return [...common, ...DATES, '', 20_260_101];
    case 'timestamp':
      return [...common, ...TIMESTAMPS, '', 1_767_225_600_000];
    case 'uuid':
      return [...common, ...UUIDS, 5];
    case 'reference':
      // A well-formed id of nothing in this tenant: the foreign key refuses it.
      return [...common, ...UUIDS, 5, '0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11'];
    case 'json':
      return ['x', 5, [], null];
    case 'lines':
      // An empty list is a list of lines: only its items can be wrong.
      return [
        {},
        { $ne: 1 },
        ...(field.required ? [null] : []),
        'x',
        5,
        [[]],
        [5],
        [null],
        Array.from({ length: field.maxItems + 1 }, () => ({})),
      ];
  }
}

/** Whole bodies that are not an object of the resource, or not JSON at all. */
export const BAD_BODIES: { label: string; body: string }[] = [
  { label: 'empty', body: '' },
  { label: 'truncated', body: '{' },
  { label: 'bad token', body: '{"a":}' },
  { label: 'trailing garbage', body: '{} x' },
  { label: 'null', body: 'null' },
  { label: 'array', body: '[]' },
  { label: 'array of objects', body: '[{}]' },
  { label: 'string', body: '"x"' },
  { label: 'number', body: '1e999' },
  { label: 'comment', body: '{/* c */}' },
  { label: 'single quotes', body: "{'a': 1}" },
  { label: 'NaN', body: '{"a": NaN}' },
  { label: 'deep array', body: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  { label: 'deep object', body: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}` },
  { label: 'unknown field', body: '{"no_such_field": 1}' },
  { label: '__proto__', body: '{"__proto__": {"admin": true}}' },
  { label: 'constructor', body: '{"constructor": {"prototype": {}}}' },
  { label: 'wide array', body: JSON.stringify(Array.from({ length: 50_000 }, (_, i) => i)) },
];
