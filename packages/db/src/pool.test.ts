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
