import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from './pool';
import { createTestDatabase, type TestDatabase } from './testing';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

/** The statements the pool's one connection holds prepared, after a named query ran on it. */
async function preparedAfterNamedQuery(preparedStatements: boolean): Promise<string[]> {
  const pool = createPool({ url: tdb.url, max: 1, preparedStatements });
  try {
    const named = { name: 'pool_test_statement', text: 'SELECT $1::int + 1 AS n', values: [41] };
    // Twice: the second run is the one that would reuse the prepared statement.
    expect((await pool.query(named)).rows).toEqual([{ n: 42 }]);
    expect((await pool.query(named)).rows).toEqual([{ n: 42 }]);
    // The constant a module keeps is not changed by the pool.
    expect(named.name).toBe('pool_test_statement');
    const { rows } = await pool.query<{ name: string }>(
      'SELECT name FROM pg_prepared_statements ORDER BY name',
    );
    return rows.map((row) => row.name);
  } finally {
    await pool.end();
  }
}

describe('createPool', () => {
  it('prepares named statements once per connection by default', async () => {
    expect(await preparedAfterNamedQuery(true)).toEqual(['pool_test_statement']);
  });

  it('sends every statement unnamed with preparedStatements: false (a transaction-mode pooler)', async () => {
    expect(await preparedAfterNamedQuery(false)).toEqual([]);
  });
});

describe('the pool’s clients, awaited', () => {
  const kinds = [
    ['named statements kept', {}],
    ['named statements bounded', { maxPreparedStatements: 2 }],
    ['statements unnamed', { preparedStatements: false }],
  ] as const;

  for (const [kind, options] of kinds) {
    it(`answers as node-pg does, its errors too (${kind})`, async () => {
      const pool = createPool({ url: tdb.url, max: 1, ...options });
      const client = await pool.connect();
      try {
        // Every form an awaited query takes: text, text and values, a config, array rows.
        expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
        expect((await client.query('SELECT $1::int AS n', [2])).rows).toEqual([{ n: 2 }]);
        const config = { name: 'awaited_n', text: 'SELECT $1::int AS n', values: [3] };
        expect((await client.query(config)).rows).toEqual([{ n: 3 }]);
        expect(
          (await client.query({ text: 'SELECT 4 AS n, 5 AS m', rowMode: 'array' })).rows,
        ).toEqual([[4, 5]]);
        // node-pg's own callback form is left as it is.
        const called = await new Promise((resolve, reject) =>
          client.query('SELECT 6 AS n', (error, result) =>
            error ? reject(error) : resolve(result.rows),
          ),
        );
        expect(called).toEqual([{ n: 6 }]);
        // A failed statement rejects with PostgreSQL's error, its stack leading back here.
        const error = await (async function awaitingCaller() {
          return client.query('SELECT 1 / $1::int', [0]).catch((e: unknown) => e);
        })();
        expect(error).toMatchObject({ code: '22012' });
        expect((error as Error).stack).toContain('pool.test.ts');
        // The connection is still usable after it.
        expect((await client.query('SELECT 7 AS n')).rows).toEqual([{ n: 7 }]);
      } finally {
        client.release();
        await pool.end();
      }
    });
  }
});
