import { randomBytes } from 'node:crypto';
import { type createTestPortal, session } from './harness';

type Portal = Awaited<ReturnType<typeof createTestPortal>>;

/**
 * A tenant with a small French chart of accounts, its journals and Settings → Accounting, made
 * through the API as an accountant would; and helpers to write records and read the ledger.
 */
export async function booksTenant(portal: Portal) {
  const tenant = await portal.provisionTenant();
  const admin = session((await portal.login(tenant.adminEmail)).access_token, tenant.slug);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await portal.request(`/api/v1/${path}`, {
      method,
      headers: { ...admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return portal.json(res);
  };
  const create = async (path: string, body: Record<string, unknown>) => {
    const res = await call('POST', path, body);
    if (res.status !== 201)
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown> & { id: string };
  };
  // Provisioning installed the French chart, its journals and Settings → Accounting.
  const list = async (path: string) =>
    (await call('GET', `${path}?page_size=200`)).body.data as {
      id: string;
      code: string;
    }[];
  const byCode = (rows: { id: string; code: string }[], code: string) => {
    const row = rows.find((r) => r.code === code);
    if (!row) throw new Error(`no ${code}`);
    return row as Record<string, unknown> & { id: string };
  };
  const chart = await list('accounts');
  const accounts = {
    receivable: byCode(chart, '411000'),
    payable: byCode(chart, '401000'),
    revenue: byCode(chart, '707000'),
    expense: byCode(chart, '607000'),
    vat_collected: byCode(chart, '445710'),
    vat_deductible: byCode(chart, '445660'),
    bank: byCode(chart, '512000'),
    exchange_gain: byCode(chart, '766000'),
    exchange_loss: byCode(chart, '666000'),
    write_off: byCode(chart, '658000'),
  };
  const books = await list('journals');
  const journals = {
    sales: byCode(books, 'VTE'),
    purchases: byCode(books, 'ACH'),
    bank: byCode(books, 'BQ'),
    misc: byCode(books, 'OD'),
  };
  const customer = await create('customers', {
    name: `Client ${randomBytes(2).toString('hex')}`,
    customer_type: 'company',
    active: true,
  });
  const supplier = await create('suppliers', {
    name: `Fournisseur ${randomBytes(2).toString('hex')}`,
  });

  /** The posted lines of the tenant's ledger, as the database keeps them. */
  const ledger = async () =>
    (
      await portal.tdb.pool.query<{
        entry_id: string;
        account_id: string;
        debit_cents: string;
        credit_cents: string;
      }>('SELECT * FROM ledger_lines WHERE tenant_id = $1 ORDER BY posted_at, entry_id, line_no', [
        tenant.id,
      ])
    ).rows.map((l) => ({ ...l, debit: Number(l.debit_cents), credit: Number(l.credit_cents) }));

  return { portal, tenant, admin, call, create, accounts, journals, customer, supplier, ledger };
}

/** An invoice line: quantity × unit price at a rate, in the API's shape. */
export function line(quantity: string, unit_price_cents: number, tax_rate: string, extra = {}) {
  return { description: 'Article', quantity, unit_price_cents, tax_rate, ...extra };
}
