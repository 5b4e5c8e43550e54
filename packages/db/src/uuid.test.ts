import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing';
import { uuidv7 } from './uuid';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7 (the engine’s statement ids, SPEC §19)', () => {
  it('is a version 7 UUID carrying its millisecond, and increases in the order drawn, also within one millisecond', () => {
    const ms = Date.UTC(2026, 10, 28, 12, 0, 0, 123);
    const ids = Array.from({ length: 5000 }, () => uuidv7(ms));
    for (const id of ids) expect(id).toMatch(V7);
    expect(Number.parseInt(ids[0]!.replace('-', '').slice(0, 12), 16)).toBe(ms);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    // A clock going back does not reorder them either.
    expect(uuidv7(ms - 10_000) > ids[ids.length - 1]!).toBe(true);
  });

  it('erp_uuid_offset(base, n): immutable, the base’s first 80 bits kept, distinct and increasing with n below the next base', async () => {
    const { rows: volatility } = await tdb.pool.query(
      "SELECT provolatile FROM pg_proc WHERE proname = 'erp_uuid_offset'",
    );
    expect(volatility).toEqual([{ provolatile: 'i' }]);
    // Thirty bases, each with 0–1000 offsets.
    for (let run = 0; run < 30; run++) {
      const count = Math.floor(Math.random() * 1001);
      const base = uuidv7();
      const next = uuidv7();
      const { rows } = await tdb.pool.query<{ id: string }>(
        'SELECT erp_uuid_offset($1, n)::text AS id FROM generate_series(0, $2::int) n ORDER BY n',
        [base, count],
      );
      expect(rows[0]!.id).toBe(base);
      for (const [i, { id }] of rows.entries()) {
        expect(id).toMatch(V7);
        expect(id.slice(0, 23)).toBe(base.slice(0, 23));
        if (i > 0 && BigInt(`0x${base.slice(24)}`) + BigInt(i) < 2n ** 48n)
          expect(id > rows[i - 1]!.id).toBe(true);
        expect(id < next).toBe(true);
      }
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    }
    const { rows: wrapped } = await tdb.pool.query(
      "SELECT erp_uuid_offset('01900000-0000-7000-8000-ffffffffffff', 2)::text AS id",
    );
    expect(wrapped[0].id).toBe('01900000-0000-7000-8000-000000000001');
  });
});
