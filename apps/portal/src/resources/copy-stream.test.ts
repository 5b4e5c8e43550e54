import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineValues } from './copy-stream';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

describe('inlineValues (the export COPY’s parameters)', () => {
  it('any text, array and null reads back as PostgreSQL would have bound it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.array(fc.string({ unit: 'grapheme', maxLength: 8 }), { maxLength: 4 }),
        async (text, list) => {
          const sql = 'SELECT $1::text AS a, $2::text[] AS b, $3::int AS c';
          const values = [text.replaceAll('\0', ''), list.map((x) => x.replaceAll('\0', '')), null];
          const bound = (await tdb.pool.query(sql, values)).rows[0];
          const inlined = (await tdb.pool.query(inlineValues(sql, values))).rows[0];
          expect(inlined).toEqual(bound);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a quote or a backslash cannot end the literal', () => {
    expect(inlineValues('SELECT $1::text', ["x'); DROP TABLE t; --"])).toBe(
      "SELECT 'x''); DROP TABLE t; --'::text",
    );
    expect(inlineValues('SELECT $1::text', ['a\\b'])).toBe("SELECT  E'a\\\\b'::text");
  });
});
