import { randomBytes } from 'node:crypto';
import { type createTestPortal, session } from '../../test/harness';

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
  const account = (code: string, name: string, account_type: string) =>
    create('accounts', { code, name, account_type, is_group: false, reconcilable: false });
  const accounts = {
    receivable: await account('411000', 'Clients', 'asset'),
    payable: await account('401000', 'Fournisseurs', 'liability'),
    revenue: await account('707000', 'Ventes de marchandises', 'income'),
    expense: await account('607000', 'Achats de marchandises', 'expense'),
    vat_collected: await account('445710', 'TVA collectée', 'liability'),
    vat_deductible: await account('445660', 'TVA déductible', 'asset'),
    bank: await account('512000', 'Banque', 'asset'),
    exchange_gain: await account('766000', 'Gains de change', 'income'),
    exchange_loss: await account('666000', 'Pertes de change', 'expense'),
    write_off: await account('658000', 'Charges diverses', 'expense'),
  };
  const journal = (code: string, journal_type: string, default_account_id?: string) =>
    create('journals', {
      code,
      name: code,
      journal_type,
      sequence_prefix: code,
      ...(default_account_id ? { default_account_id } : {}),
    });
  const journals = {
    sales: await journal('VTE', 'sales'),
    purchases: await journal('ACH', 'purchases'),
    bank: await journal('BQ', 'bank', accounts.bank.id),
    misc: await journal('OD', 'miscellaneous'),
  };
  const settings = await call('PUT', 'settings/accounting', {
    company_currency: 'EUR',
    accounts: Object.fromEntries(
      Object.entries(accounts)
        .filter(([name]) => name !== 'bank')
        .map(([name, a]) => [name, a.id]),
    ),
  });
  if (settings.status !== 200) throw new Error(`settings: ${JSON.stringify(settings.body)}`);
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
