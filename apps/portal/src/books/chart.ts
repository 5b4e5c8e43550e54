import type { AccountSetting } from '@erp/contract';
import type pg from 'pg';

/**
 * A new tenant's books, as Odoo installs a localisation's chart and ERPNext a company's default
 * accounts (SPEC §17): the French chart's accounts every posting needs, the sales, purchases,
 * bank and miscellaneous journals, Settings → Accounting pointing at them, and an open fiscal
 * year with monthly periods for the current year and the next. Idempotent: what exists (by
 * account code, journal code, year name) is kept, so it also completes a tenant made before.
 */
const ACCOUNTS: readonly {
  code: string;
  name: string;
  type: 'asset' | 'liability' | 'equity' | 'income' | 'expense';
  reconcilable?: boolean;
  /** What it is used for: receivable and payable accounts are the parties' ledgers. */
  subType?: 'receivable' | 'payable' | 'bank' | 'cash' | 'tax' | 'stock';
  setting?: AccountSetting;
}[] = [
  { code: '101000', name: 'Capital', type: 'equity' },
  {
    code: '370000',
    name: 'Stocks de marchandises',
    type: 'asset',
    subType: 'stock',
    setting: 'stock',
  },
  {
    code: '401000',
    name: 'Fournisseurs',
    type: 'liability',
    reconcilable: true,
    subType: 'payable',
    setting: 'payable',
  },
  {
    code: '408000',
    name: 'Fournisseurs - factures non parvenues',
    type: 'liability',
    setting: 'stock_received_not_billed',
  },
  {
    code: '411000',
    name: 'Clients',
    type: 'asset',
    reconcilable: true,
    subType: 'receivable',
    setting: 'receivable',
  },
  {
    code: '445660',
    name: 'TVA déductible sur autres biens et services',
    type: 'asset',
    subType: 'tax',
    setting: 'vat_deductible',
  },
  {
    code: '445710',
    name: 'TVA collectée',
    type: 'liability',
    subType: 'tax',
    setting: 'vat_collected',
  },
  { code: '512000', name: 'Banque', type: 'asset', reconcilable: true, subType: 'bank' },
  { code: '530000', name: 'Caisse', type: 'asset', subType: 'cash' },
  {
    code: '603700',
    name: 'Variation des stocks de marchandises',
    type: 'expense',
    setting: 'cost_of_goods_sold',
  },
  { code: '607000', name: 'Achats de marchandises', type: 'expense', setting: 'expense' },
  {
    code: '658000',
    name: 'Charges diverses de gestion courante',
    type: 'expense',
    setting: 'write_off',
  },
  { code: '666000', name: 'Pertes de change', type: 'expense', setting: 'exchange_loss' },
  { code: '706000', name: 'Prestations de services', type: 'income' },
  { code: '707000', name: 'Ventes de marchandises', type: 'income', setting: 'revenue' },
  { code: '766000', name: 'Gains de change', type: 'income', setting: 'exchange_gain' },
];

const JOURNALS = [
  { code: 'VTE', name: 'Ventes', type: 'sales', account: '707000' },
  { code: 'ACH', name: 'Achats', type: 'purchases', account: '607000' },
  { code: 'BQ', name: 'Banque', type: 'bank', account: '512000' },
  { code: 'OD', name: 'Opérations diverses', type: 'miscellaneous', account: null },
] as const;

/** Installs what is missing of the tenant's books; `client` is bound to the tenant. */
export async function installBooks(
  client: pg.PoolClient,
  tenantId: string,
  today: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO accounts (tenant_id, code, name, account_type, sub_type, is_group, reconcilable)
     SELECT $1, a.code, a.name, a.type, a.sub_type, false, a.reconcilable
       FROM jsonb_to_recordset($2::jsonb) AS a(code text, name text, type text, sub_type text, reconcilable boolean)
      WHERE NOT EXISTS (SELECT 1 FROM accounts x WHERE x.tenant_id = $1 AND x.code = a.code)`,
    [
      tenantId,
      JSON.stringify(
        ACCOUNTS.map((a) => ({
          ...a,
          sub_type: a.subType ?? null,
          reconcilable: a.reconcilable ?? false,
        })),
      ),
    ],
  );
  await client.query(
    `INSERT INTO journals (tenant_id, code, name, journal_type, sequence_prefix, default_account_id)
     SELECT $1, j.code, j.name, j.type, j.code,
            (SELECT id FROM accounts a WHERE a.tenant_id = $1 AND a.code = j.account ORDER BY a.created_at LIMIT 1)
       FROM jsonb_to_recordset($2::jsonb) AS j(code text, name text, type text, account text)
      WHERE NOT EXISTS (SELECT 1 FROM journals x WHERE x.tenant_id = $1 AND x.code = j.code)`,
    [tenantId, JSON.stringify(JOURNALS)],
  );
  const settings = ACCOUNTS.filter((a) => a.setting);
  const columns = settings.map((a) => `${a.setting}_account_id`);
  const values = settings.map(
    (a) =>
      `(SELECT id FROM accounts a WHERE a.tenant_id = $1 AND a.code = '${a.code}' ORDER BY a.created_at LIMIT 1)`,
  );
  await client.query(
    `INSERT INTO accounting_settings (tenant_id, company_currency, ${columns.join(', ')})
     VALUES ($1, 'EUR', ${values.join(', ')})
     ON CONFLICT (tenant_id) DO NOTHING`,
    [tenantId],
  );
  const year = today.getUTCFullYear();
  for (const y of [year, year + 1]) {
    await client.query(
      `WITH fy AS (
         INSERT INTO fiscal_years (tenant_id, name, start_date, end_date)
         SELECT $1, $2, make_date($3, 1, 1), make_date($3, 12, 31)
          WHERE NOT EXISTS (SELECT 1 FROM fiscal_years x WHERE x.tenant_id = $1 AND x.name = $2)
         RETURNING id)
       INSERT INTO accounting_periods (tenant_id, fiscal_year_id, name, period_type, start_date, end_date)
       SELECT $1, fy.id, to_char(m, 'YYYY-MM'), 'month', m::date, (m + interval '1 month - 1 day')::date
         FROM fy, generate_series(make_date($3, 1, 1), make_date($3, 12, 1), interval '1 month') AS m`,
      [tenantId, `FY ${y}`, y],
    );
  }
}
