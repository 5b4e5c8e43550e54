import {
  boolean,
  date,
  decimal,
  type Field,
  integer,
  isDecimalNumber,
  money,
  parseFieldValue,
  text,
  timestamp,
  uuid,
} from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The contract's value rules (packages/contract/src/registry/field-values.ts) against the real
 * PostgreSQL: for each edge value, the parser accepts it exactly when PostgreSQL stores it in
 * the field's column type. Where the API is deliberately stricter than PostgreSQL (spellings
 * it does not document, values PostgreSQL would round or shift), the row says why.
 */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

/** [value, why the API refuses what PostgreSQL accepts] */
type Row = [string] | [string, string];

/** The column type each field type is stored in (packages/db/src/resource-ddl.ts). */
const CASES: { field: Field; column: string; rows: Row[] }[] = [
  {
    field: date(),
    column: 'date',
    rows: [
      ['2026-02-28'],
      ['2024-02-29'],
      ['2000-02-29'],
      ['2026-02-29'],
      ['1900-02-29'],
      ['2026-02-30'],
      ['2026-04-31'],
      ['2026-13-01'],
      ['2026-00-10'],
      ['2026-01-00'],
      ['0000-01-01'],
      ['0001-01-01'],
      ['9999-12-31'],
      [''],
      ['2026-01-32'],
      ['2026-1-1', 'only YYYY-MM-DD is documented'],
      ['20260101', 'only YYYY-MM-DD is documented'],
      ['10000-01-01', 'years have four digits'],
      ['today', 'no relative words: a filter means the same whenever it runs'],
      ['infinity', 'no special values'],
      ['0001-01-01 BC', 'years 0001–9999 only'],
    ],
  },
  {
    field: timestamp(),
    column: 'timestamptz',
    rows: [
      ['2026-02-28T23:59:59Z'],
      ['2026-02-30T00:00:00Z'],
      ['2026-02-31T00:00:00Z'],
      ['0000-01-01T00:00:00Z'],
      ['0001-01-01T00:00:00Z'],
      ['9999-12-31T23:59:59.999999Z'],
      ['2026-01-01T25:00:00Z'],
      ['2026-01-01T24:00:01Z'],
      ['2026-01-01T23:60:00Z'],
      ['2026-01-01T10:00:00+15:59'],
      ['2026-01-01T10:00:00-15:59'],
      ['2026-01-01T10:00:00+16:00'],
      ['2026-01-01T10:00:00+24:00'],
      ['2026-01-01T10:00:00+99:99'],
      ['2026-01-01T10:00:00+05:60'],
      ['2026-01-01T10:00:00.123456+05:30'],
      ['2026-01-01T10:00Z'],
      ['2026-01-01T10:00:00+0530'],
      ['2026-01-01T10:00:00+05'],
      ['2026-01-01 10:00:00+00'],
      ['2026-01-01 10:00:00.5+00'],
      ['1850-01-01 10:00:00+00:09:21'],
      ['2026-01-01t10:00:00z'],
      [''],
      ['2026-01-01T24:00:00Z', 'no hour 24: write the next day at 00:00'],
      ['2026-01-01T23:59:60Z', 'no leap second: PostgreSQL would move it to the next minute'],
      ['2026-01-01T10:00:00.1234567Z', 'PostgreSQL would round it to microseconds'],
      ['2026-01-01T10:00:00', 'an offset is required: the session time zone is no meaning'],
      ['0001-01-01T00:00:00+01:00', 'before year 1 in UTC: PostgreSQL would write it BC'],
      ['9999-12-31T23:00:00-05:00', 'year 10000 in UTC: five digits'],
      ['now', 'no relative words'],
      ['epoch', 'no special values'],
    ],
  },
  {
    field: decimal(),
    column: 'numeric(18,6)',
    rows: [
      ['0'],
      ['-0'],
      ['12.5'],
      ['999999999999.999999'],
      ['-999999999999.999999'],
      ['1000000000000'],
      ['9999999999999.5'],
      [''],
      ['abc'],
      ['1.2.3'],
      ['0.1234567', 'PostgreSQL would round it to 6 decimals'],
      ['1e3', 'no exponents in text: write the digits'],
      ['.5', 'digits before the point'],
      ['1.', 'digits after the point'],
      ['NaN', 'no special values'],
      [' 1', 'no spaces'],
    ],
  },
  {
    field: integer(),
    column: 'int4',
    rows: [
      ['0'],
      ['-0'],
      ['2147483647'],
      ['-2147483648'],
      ['2147483648'],
      ['-2147483649'],
      ['99999999999999999999'],
      ['1.0'],
      [''],
      ['0000000000000000001', 'at most 16 digits'],
      [' 1', 'no spaces'],
      ['1_000', 'digits only'],
      ['0x10', 'digits only'],
    ],
  },
  {
    field: money(),
    column: 'int8',
    rows: [
      ['9007199254740991'],
      ['-9007199254740991'],
      ['9223372036854775808'],
      ['1.5'],
      ['9007199254740992', 'beyond what a JSON number holds exactly'],
      ['-9223372036854775808', 'beyond what a JSON number holds exactly'],
    ],
  },
  {
    field: uuid(),
    column: 'uuid',
    rows: [
      ['0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11'],
      ['0B6F4C52-3F0E-4C7E-9A39-7D1F0F3B2A11'],
      ['00000000-0000-0000-0000-000000000000'],
      ['0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a1'],
      ['0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11x'],
      ['{0b6f4c52-3f0e-4c7e-9a39-7d1f0f3b2a11}', 'the hyphenated form only'],
      ['0b6f4c523f0e4c7e9a397d1f0f3b2a11', 'the hyphenated form only'],
    ],
  },
  {
    field: text(),
    column: 'text',
    rows: [
      ['plain'],
      ['émoji 🚀 日本語'],
      ['a\u0000b'],
      ['\u0000'],
      // UTF-8 cannot encode half a surrogate pair: PostgreSQL would get U+FFFD, not the value.
      ['lone \ud800 surrogate'],
      ['\udc00 low half'],
      ['pair \ud83d\ude80 kept'],
      ['x'.repeat(501), "longer than the field's maxLength (500): no row holds it"],
    ],
  },
  {
    field: boolean(),
    column: 'bool',
    rows: [
      ['true'],
      ['false'],
      [''],
      ['maybe'],
      ['t', 'true or false only'],
      ['1', 'true or false only'],
    ],
  },
];

/** Whether PostgreSQL takes the text as a value of the column type, and gives text values back unchanged. */
async function storedByPostgres(column: string, value: string): Promise<boolean> {
  try {
    const { rows } = await tdb.pool.query(`SELECT $1::${column}::text AS v`, [value]);
    return column !== 'text' || rows[0].v === value;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    // Class 22 (data exception) is the refusal under test; anything else is a broken test.
    if (!code.startsWith('22')) throw error;
    return false;
  }
}

describe('field values agree with PostgreSQL', () => {
  for (const { field, column, rows } of CASES) {
    it(`${field.type} (${column})`, async () => {
      let accepted = 0;
      for (const [value, stricter] of rows) {
        const parsed = parseFieldValue(field, value) !== undefined;
        const stored = await storedByPostgres(column, value);
        const label = `${field.type} ${JSON.stringify(value)}`;
        if (stricter) {
          expect({ parsed, stored }, `${label}: ${stricter}`).toEqual({
            parsed: false,
            stored: true,
          });
        } else {
          expect(parsed, label).toBe(stored);
        }
        if (parsed) accepted++;
      }
      expect(accepted, 'each table holds accepted values too').toBeGreaterThan(0);
    });
  }

  it('a decimal sent as a JSON number is accepted exactly when numeric(18,6) holds it', async () => {
    const numbers = [
      0,
      -0,
      12.5,
      0.1 + 0.2,
      1e-7,
      5e-324,
      999_999_999_999.9999,
      -999_999_999_999.9999,
      1e12,
      -1e12,
      1e21,
      Number.MAX_VALUE,
    ];
    for (const n of numbers) {
      // The portal sends String(n), exponent and all (records-write's toParameter).
      expect(isDecimalNumber(n), String(n)).toBe(
        await storedByPostgres('numeric(18,6)', String(n)),
      );
    }
  });
});
