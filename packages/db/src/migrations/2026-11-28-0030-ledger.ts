import { type Kysely, sql } from 'kysely';

/**
 * The books' own tables (SPEC §17); what they keep on the catalogue's tables (balanced and final
 * entries, settlement) is generated with them (catalogue-schema/invariants.ts, migration 0031).
 *
 * - `ledger_lines`: the ledger, written only by the posting trigger of `journal_entries` from a
 *   posted entry's lines. The application's role may only read it (no INSERT, UPDATE or DELETE
 *   privilege): no code path rewrites the ledger.
 * - `account_balances`: debit and credit by account and month, kept by the same trigger, so a
 *   trial balance costs the months and accounts it covers, not the lines of the whole history.
 *   Read-only for the application too.
 * - `accounting_settings`: the company currency and the default accounts (Settings → Accounting).
 *
 * They hold no foreign key into the catalogue's tables (which the generated migrations must be
 * able to drop and create again): a ledger line comes from a posted entry, which can never be
 * deleted, and whose lines name accounts that the line-reference triggers keep from deletion;
 * the settings' accounts are checked when they are saved and when they are posted to.
 * - `erp_entry_balanced(lines)`: the CHECK a posted entry's lines must pass (IMMUTABLE: a CHECK
 *   over the row's own data holds on a table distributed by tenant, SPEC §19).
 */
const SETTINGS = [
  'receivable',
  'payable',
  'revenue',
  'expense',
  'vat_collected',
  'vat_deductible',
  'stock',
  'stock_received_not_billed',
  'cost_of_goods_sold',
  'exchange_gain',
  'exchange_loss',
  'write_off',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const settingColumns = SETTINGS.map((s) => `${s}_account_id uuid`).join(',\n      ');
  await sql
    .raw(`
    CREATE TABLE accounting_settings (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      company_currency text NOT NULL DEFAULT 'EUR' CHECK (company_currency ~ '^[A-Z]{3}$'),
      ${settingColumns},
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE FUNCTION erp_entry_balanced(p_lines jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
      SELECT coalesce(
        count(*) >= 2
        AND bool_and(
          coalesce((l->>'debit_cents')::bigint, 0) >= 0
          AND coalesce((l->>'credit_cents')::bigint, 0) >= 0
          AND (coalesce((l->>'debit_cents')::bigint, 0) > 0) <> (coalesce((l->>'credit_cents')::bigint, 0) > 0))
        AND sum(coalesce((l->>'debit_cents')::bigint, 0)) = sum(coalesce((l->>'credit_cents')::bigint, 0)),
        false)
      FROM jsonb_array_elements(CASE jsonb_typeof(p_lines) WHEN 'array' THEN p_lines ELSE '[]'::jsonb END) l
    $fn$;

    CREATE TABLE ledger_lines (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      entry_id uuid NOT NULL,
      line_no integer NOT NULL,
      journal_id uuid NOT NULL,
      entry_number text NOT NULL,
      entry_date date NOT NULL,
      posted_at timestamptz NOT NULL,
      account_id uuid NOT NULL,
      debit_cents bigint NOT NULL CHECK (debit_cents >= 0),
      credit_cents bigint NOT NULL CHECK (credit_cents >= 0),
      currency text,
      amount_currency_cents bigint,
      customer_id uuid,
      supplier_id uuid,
      due_date date,
      label text,
      PRIMARY KEY (tenant_id, entry_id, line_no),
      CHECK ((debit_cents > 0) <> (credit_cents > 0))
    );
    CREATE INDEX ledger_lines_account_date ON ledger_lines (tenant_id, account_id, entry_date, posted_at, entry_id, line_no);
    CREATE INDEX ledger_lines_date ON ledger_lines (tenant_id, entry_date);
    CREATE INDEX ledger_lines_customer ON ledger_lines (tenant_id, customer_id, entry_date) WHERE customer_id IS NOT NULL;
    CREATE INDEX ledger_lines_supplier ON ledger_lines (tenant_id, supplier_id, entry_date) WHERE supplier_id IS NOT NULL;

    CREATE TABLE account_balances (
      tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      account_id uuid NOT NULL,
      month date NOT NULL CHECK (extract(day FROM month) = 1),
      debit_cents bigint NOT NULL DEFAULT 0,
      credit_cents bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant_id, account_id, month)
    );
  `)
    .execute(db);
  for (const table of ['accounting_settings', 'ledger_lines', 'account_balances']) {
    await sql
      .raw(`
      ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
      ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
      CREATE POLICY tenant_isolation ON ${table}
        USING (tenant_id = erp_tenant_id()) WITH CHECK (tenant_id = erp_tenant_id());
    `)
      .execute(db);
  }
  await sql`
    GRANT SELECT, INSERT, UPDATE ON accounting_settings TO erp_app;
    GRANT SELECT ON ledger_lines, account_balances TO erp_app;
    GRANT EXECUTE ON FUNCTION erp_entry_balanced(jsonb) TO erp_app;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE account_balances, ledger_lines, accounting_settings;
    DROP FUNCTION erp_entry_balanced(jsonb);
  `.execute(db);
}
