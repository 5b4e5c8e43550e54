import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { introspectDatabaseTypes, renderDatabaseTypes } from './database-types';
import { createTestDatabase, rollingBack, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

describe('the generated Database type', () => {
  it('is the migrated database: src/database.gen.ts is what codegen writes from it', async () => {
    const committed = readFileSync(new URL('./database.gen.ts', import.meta.url), 'utf8');
    expect(renderDatabaseTypes(await introspectDatabaseTypes(tdb.db))).toBe(committed);
  });

  it('types each column as node-pg returns it, with defaults optional and checks as unions', async () => {
    const { types, row } = await rollingBack(tdb.db, async (trx) => {
      await sql`
        CREATE TABLE fx_types (
          n bigint GENERATED ALWAYS AS IDENTITY,
          i integer NOT NULL,
          big bigint NOT NULL,
          amount numeric(18,6),
          day date NOT NULL,
          at timestamptz NOT NULL DEFAULT now(),
          doc jsonb NOT NULL DEFAULT '{}',
          tags text[] NOT NULL,
          counts integer[],
          raw bytea,
          code character(3),
          kind text NOT NULL CHECK (kind IN ('a', 'it''s')),
          ok boolean
        )`.execute(trx);
      await sql`
        INSERT INTO fx_types (i, big, amount, day, tags, counts, raw, code, kind, ok)
        VALUES (1, 9007199254740993, 1.5, '2026-03-01', '{x,y}', '{1,2}', '\\x01', 'EUR', 'a', true)
      `.execute(trx);
      const tables = await introspectDatabaseTypes(trx);
      const row = await sql<Record<string, unknown>>`SELECT * FROM fx_types`.execute(trx);
      return { types: tables.find((t) => t.table === 'fx_types')!, row: row.rows[0]! };
    });
    expect(renderDatabaseTypes([types])).toContain(`export interface FxTypesTable {
  n: Defaulted<Int8>;
  i: number;
  big: Int8;
  amount: Numeric | null;
  day: Timestamp;
  at: Defaulted<Timestamp>;
  doc: Defaulted<Json>;
  tags: string[];
  counts: number[] | null;
  raw: Buffer | null;
  code: string | null;
  kind: 'a' | 'it\\'s';
  ok: boolean | null;
}`);
    // What node-pg hands over is what those types say.
    expect(row).toEqual({
      n: '1',
      i: 1,
      big: '9007199254740993',
      amount: '1.500000',
      day: expect.any(Date),
      at: expect.any(Date),
      doc: {},
      tags: ['x', 'y'],
      counts: [1, 2],
      raw: Buffer.from([1]),
      code: 'EUR',
      kind: 'a',
      ok: true,
    });
  });

  it('refuses a column type it has no TypeScript type for', async () => {
    const failure = await rollingBack(tdb.db, async (trx) => {
      await sql`CREATE TABLE fx_odd (p point)`.execute(trx);
      return introspectDatabaseTypes(trx).then(
        () => null,
        (e: Error) => e.message,
      );
    });
    expect(failure).toBe('public.fx_odd.p: no TypeScript type for point (database-types.ts)');
  });
});
