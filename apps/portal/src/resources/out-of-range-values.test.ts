import { catalogue } from '@erp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';
import { populate } from '../../test/resources-harness';

/**
 * Values that look right (they pass a naive regular expression, and JavaScript's Date) but
 * that PostgreSQL refuses: each must be a 400 naming the field, never a 500 (issue 12).
 */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let headers: Record<string, string>;
let employeeId: string;
let expenseReportId: string;

beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await portal.provisionTenant('enterprise');
  headers = {
    ...session((await portal.login(tenant.adminEmail)).access_token, tenant.slug),
    'content-type': 'application/json',
  };
  const hr = catalogue.filter((r) => r.module === 'hr');
  const refs = await populate(portal, hr, headers, 1);
  employeeId = refs.get('employee')![0]!;
  expenseReportId = refs.get('expense_report')![0]!;
}, 180_000);
afterAll(() => portal.tdb.close());

const get = async (path: string) => portal.json(await portal.request(path, { headers }));

describe('dates and timestamps PostgreSQL rejects', () => {
  it.each([
    [
      '/api/v1/sales-orders?created_at=gt.2026-02-30T00:00:00Z',
      'created_at',
      '2026-02-30T00:00:00Z',
    ],
    [
      '/api/v1/sales-orders?created_at=lt.0000-01-01T00:00:00Z',
      'created_at',
      '0000-01-01T00:00:00Z',
    ],
    [
      '/api/v1/sales-orders?created_at=in.(2026-02-31T00:00:00Z)',
      'created_at',
      '2026-02-31T00:00:00Z',
    ],
    [
      '/api/v1/sales-orders?created_at=gte.2026-01-01T10:00:00%2B16:00',
      'created_at',
      '2026-01-01T10:00:00+16:00',
    ],
    ['/api/v1/employees?hire_date=eq.0000-01-01', 'hire_date', '0000-01-01'],
    ['/api/v1/employees?hire_date=eq.2026-02-29', 'hire_date', '2026-02-29'],
  ])('GET %s is 400 filtre_invalide naming the field', async (path, field, value) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.body).toMatchObject({
      code: 'filtre_invalide',
      params: { field, value, reason: 'invalid_value' },
    });
  });

  it.each([
    ['hire_date', '0000-01-01'],
    ['hire_date', '2026-02-29'],
    ['leaving_date', '0000-12-31'],
  ])(
    'PATCH an employee with %s %s is 400 requete_invalide naming the field',
    async (field, value) => {
      const res = await portal.json(
        await portal.request(`/api/v1/employees/${employeeId}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ [field]: value }),
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('requete_invalide');
      expect(res.body.params.issues).toEqual([
        expect.objectContaining({ location: 'json', path: field }),
      ]);
    },
  );

  it('a forged cursor holding 2026-02-30T00:00:00Z is 400 requete_invalide naming the cursor', async () => {
    const forged = Buffer.from(
      JSON.stringify([
        'created_at.desc,id.desc',
        ['2026-02-30T00:00:00Z', '00000000-0000-4000-8000-000000000000'],
      ]),
    ).toString('base64url');
    const res = await get(`/api/v1/sales-orders?order=created_at.desc&cursor=${forged}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'query', path: 'cursor', code: 'invalid_cursor' }] },
    });
  });
});

const patch = async (path: string, body: unknown) =>
  portal.json(await portal.request(path, { method: 'PATCH', headers, body: JSON.stringify(body) }));

const line = {
  description: 'Train',
  quantity: '1',
  unit_price_cents: 100,
  tax_rate: '20',
  expense_date: '2026-03-12',
  category: 'travel',
};

describe('values PostgreSQL would not store as sent', () => {
  it.each([
    ['a NUL', 'a\u0000b'],
    ['an unpaired surrogate', 'lone \ud800'],
    ['an unpaired low surrogate', '\udc00'],
  ])('text with %s is 400 requete_invalide naming the field', async (_, value) => {
    const res = await patch(`/api/v1/employees/${employeeId}`, { first_name: value });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'requete_invalide',
      params: { issues: [{ location: 'json', path: 'first_name' }] },
    });
  });

  it('a date inside lines (stored as JSON, unchecked by PostgreSQL) is checked all the same', async () => {
    const res = await patch(`/api/v1/expense-reports/${expenseReportId}`, {
      lines: [{ ...line, expense_date: '0000-01-01' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.params.issues).toEqual([
      expect.objectContaining({ location: 'json', path: 'lines.0.expense_date' }),
    ]);
  });

  it('lines whose totals leave the safe integers are refused before SQL, naming lines', async () => {
    for (const lines of [
      [{ ...line, quantity: '999999999999', unit_price_cents: 9_007_199_254_740_991 }],
      Array.from({ length: 3 }, () => ({
        ...line,
        quantity: '1',
        unit_price_cents: 4_503_599_627_370_495,
      })),
    ]) {
      const res = await patch(`/api/v1/expense-reports/${expenseReportId}`, { lines });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'requete_invalide',
        params: { issues: [{ location: 'json', path: 'lines', code: 'too_big' }] },
      });
    }
    const fine = await patch(`/api/v1/expense-reports/${expenseReportId}`, { lines: [line] });
    expect(fine.status).toBe(200);
    expect(fine.body.total_cents).toBe(120);
  });
});
