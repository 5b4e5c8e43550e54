import { ApiError } from '@erp/contract';
import { createTestDatabase, type TestDatabase } from '@erp/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapReadError, mapWriteError } from './pg-errors';
import { CURSOR, Params } from './sql-params';

/**
 * The safety net behind the value parsers: whatever data exception (SQLSTATE class 22)
 * PostgreSQL raises on a client's value is a 400 naming the field it came from, for reads
 * and writes alike, never a 500. Real PostgreSQL errors, raised by the statements' own casts.
 */
let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.close());

/** Runs `SELECT <params>` with one labelled parameter of the client's and returns what it throws. */
async function refused(
  value: unknown,
  cast: string,
  label: string,
  map: (error: unknown, params: Params) => never,
): Promise<ApiError> {
  const params = new Params();
  const tenant = params.add('00000000-0000-4000-8000-000000000000', 'uuid');
  const text = `SELECT ${tenant}, ${params.add(value, cast, label)}`;
  const error = await tdb.pool.query(text, params.values).then(
    () => undefined,
    (e: unknown) => {
      try {
        map(e, params);
      } catch (mapped) {
        return mapped;
      }
    },
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const read = (e: unknown, p: Params) => mapReadError(e, p);
const write = (e: unknown, p: Params) => mapWriteError(e, 'write', p);

describe('data exceptions', () => {
  it.each([
    ['2026-02-30T00:00:00Z', 'timestamptz', '22008'],
    ['0000-01-01', 'date', '22008'],
    ['2026-01-01T10:00:00+16:00', 'timestamptz', '22009'],
    ['2147483648', 'int4', '22003'],
    ['12x', 'numeric', '22P02'],
    ['a\u0000b', 'text', '22021'],
    [['2026-02-31'], 'date[]', '22008'],
  ])(
    'a filter value %j refused as %s (%s) is filtre_invalide naming the field',
    async (value, cast, _code) => {
      const error = await refused(value, cast, 'hire_date', read);
      expect(error.toJSON()).toMatchObject({
        code: 'filtre_invalide',
        params: { field: 'hire_date', reason: 'invalid_value' },
      });
    },
  );

  it('a cursor value refused by PostgreSQL is an invalid cursor', async () => {
    const error = await refused('2026-02-30T00:00:00Z', 'timestamptz', CURSOR, read);
    expect(error.toJSON()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'query', path: 'cursor', code: 'invalid_cursor' }] },
    });
  });

  it.each([
    ['0000-01-01', 'date'],
    [9e27, 'int8'], // a JavaScript number the driver writes as 9e+27
    ['{"a": "\\u0000"}', 'jsonb'],
  ])('a body value %j refused as %s is requete_invalide naming the field', async (value, cast) => {
    const error = await refused(value, cast, 'hire_date', write);
    expect(error.status).toBe(400);
    expect(error.toJSON()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'json', path: 'hire_date' }] },
    });
  });

  it('a refusal PostgreSQL does not tie to a parameter is still a 400, unnamed', async () => {
    // numeric(18,6)'s overflow is raised by the cast, after the parameter was read.
    const error = await refused('1e15', 'numeric(18,6)', 'ratio', write);
    expect(error.toJSON()).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'json', path: '' }] },
    });
    const filter = await refused('1e15', 'numeric(18,6)', 'ratio', read);
    expect(filter.toJSON()).toMatchObject({
      code: 'filtre_invalide',
      params: { reason: 'invalid_value' },
    });
  });

  it('other failures stay failures (500 for the error handler)', async () => {
    const params = new Params();
    const error = await tdb.pool.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(() => mapReadError(error, params)).toThrow(error as Error);
    expect(() => mapWriteError(error, 'write', params)).toThrow(error as Error);
  });
});
