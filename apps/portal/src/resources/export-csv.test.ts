import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPortal, session } from '../../test/harness';

/** SPEC §16: CSV exports neutralise spreadsheet formulas in text cells (OWASP's CSV injection rule). */
let portal: Awaited<ReturnType<typeof createTestPortal>>;
let tenant: Awaited<ReturnType<typeof portal.provisionTenant>>;
let admin: Record<string, string>;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await portal.provisionTenant('enterprise');
  admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
}, 120_000);
afterAll(() => portal.tdb.close());

/** The cells of an RFC 4180 text (quotes doubled inside quoted cells, CRLF between records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

async function createCustomer(fields: Record<string, unknown>): Promise<string> {
  const res = await portal.json(
    await portal.post(
      '/api/v1/customers',
      { customer_type: 'company', active: true, ...fields },
      admin,
    ),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('CSV export and spreadsheet formulas', () => {
  it('prefixes with an apostrophe a text cell starting with =, +, -, @, tab or carriage return; numbers keep their sign', async () => {
    const hyperlink = '=HYPERLINK("http://x","y")';
    const id = await createCustomer({
      name: hyperlink,
      phone: '+33 1 23 45 67 89',
      website: '-2+3',
      vat_number: '@SUM(A1)',
      registration_number: '\tTAB',
      notes: '\r=1+1',
    });
    const safe = await createCustomer({ name: 'Martin & Fils', phone: '04 72 00 00 00' });
    // A negative amount, as other resources' numeric columns hold them: a number, not a formula.
    await portal.tdb.pool.query('UPDATE customers SET credit_limit_cents = -1250 WHERE id = $1', [
      id,
    ]);
    const select = 'name,phone,website,vat_number,registration_number,notes,credit_limit_cents';
    const res = await portal.request(
      `/api/v1/customers/export?format=csv&select=${select}&order=name.asc`,
      { headers: admin },
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['id', ...select.split(',')]);
    const byId = new Map(rows.map((r) => [r[0], r.slice(1)]));
    expect(byId.get(id)).toEqual([
      `'${hyperlink}`,
      "'+33 1 23 45 67 89",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTAB",
      "'\r=1+1",
      '-1250',
    ]);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Texts that start otherwise are untouched.
    expect(byId.get(safe)?.slice(0, 2)).toEqual(['Martin & Fils', '04 72 00 00 00']);
    // The JSON export and the API keep the value as stored: only the CSV cell is neutralised.
    const json = await portal.json(
      await portal.request(`/api/v1/customers/${id}`, { headers: admin }),
    );
    expect(json.body.name).toBe(hyperlink);
  });
});
