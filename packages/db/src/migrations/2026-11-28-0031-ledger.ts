import { type Kysely, sql } from 'kysely';

/**
 * The books (SPEC §17): PostgreSQL is the last wall, the posting engine the first.
 *
 * - **Balanced at commit, by a CHECK over the entry's own lines**: a journal entry with
 *   `posted_at` set must have at least two lines, each with exactly one positive side, and as
 *   much debit as credit (`erp_entry_balanced`, IMMUTABLE). A CHECK reads only its own row, so it
 *   holds when the table is distributed by tenant (SPEC §19).
 * - **Posted is final**: a row trigger refuses any change of a posted entry but its status going
 *   from `comptabilise` to `annule` (the reversal is a new entry), and its deletion (a tenant's
 *   own deletion cascades). It reads only the row itself.
 * - **The ledger** is `ledger_lines`, written only by the posting trigger from the entry's lines
 *   when `posted_at` is set, with the accounts checked (no group, archived or foreign account)
 *   and the period too (`ferme` periods and fiscal years refuse postings). The application's
 *   role may only read it: no UPDATE, DELETE or INSERT privilege, so no code path rewrites it.
 * - **Balances by account and month** (`account_balances`), kept by the same trigger, so a
 *   trial balance costs the months and accounts it covers, not the lines of the whole history.
 * - **Settlement**: `payment_allocations` triggers check both sides (posted, same party, same
 *   currency, within what is left) and move `amount_due_cents` (with the derived statuses) and a
 *   payment's `allocated_cents`; CHECKs keep `amount_due_cents ≥ 0` and a payment's allocations
 *   within its amount, whatever runs concurrently (the rows are locked by the updates).
 * - `accounting_settings`: the company currency and the default accounts of Settings → Accounting.
 *
 * Errors raised here carry SQLSTATE `EP0xx` and their parameters as JSON in DETAIL, turned into
 * the catalogue's codes by the portal (`ecriture_desequilibree`, `compte_invalide`,
 * `periode_cloturee`, `montant_depasse`, …).
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
const DOCUMENTS = ['invoices', 'credit_notes', 'supplier_invoices', 'debit_notes'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const settingColumns = SETTINGS.map((s) => `${s}_account_id uuid`).join(',\n      ');
  const settingKeys = SETTINGS.map(
    (s) => `FOREIGN KEY (tenant_id, ${s}_account_id) REFERENCES accounts (tenant_id, id)`,
  ).join(',\n      ');
  await sql
    .raw(`
    CREATE TABLE accounting_settings (
      tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      company_currency text NOT NULL DEFAULT 'EUR' CHECK (company_currency ~ '^[A-Z]{3}$'),
      ${settingColumns},
      updated_at timestamptz NOT NULL DEFAULT now(),
      ${settingKeys}
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
    ALTER TABLE journal_entries ADD CONSTRAINT journal_entries_posted_balanced
      CHECK (posted_at IS NULL OR erp_entry_balanced(lines));

    CREATE FUNCTION erp_posted_entry_final() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      -- A tenant's deletion cascades (the foreign key's own trigger is the caller).
      IF pg_trigger_depth() > 1 THEN
        RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      IF OLD.posted_at IS NULL THEN
        RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      IF TG_OP = 'UPDATE'
         AND OLD.status = 'comptabilise' AND NEW.status IN ('comptabilise', 'annule')
         AND (to_jsonb(NEW) - ARRAY['status', 'version', 'updated_at'])
             = (to_jsonb(OLD) - ARRAY['status', 'version', 'updated_at']) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'a posted journal entry is final: reverse it instead'
        USING ERRCODE = 'EP006', DETAIL = json_build_object('entry_id', OLD.id, 'operation', lower(TG_OP))::text;
    END
    $fn$;
    CREATE TRIGGER journal_entries_posted_final BEFORE UPDATE OR DELETE ON journal_entries
      FOR EACH ROW EXECUTE FUNCTION erp_posted_entry_final();

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
      FOREIGN KEY (tenant_id, entry_id) REFERENCES journal_entries (tenant_id, id),
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id),
      FOREIGN KEY (tenant_id, journal_id) REFERENCES journals (tenant_id, id),
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
      PRIMARY KEY (tenant_id, account_id, month),
      FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
    );

    CREATE FUNCTION erp_ledger_post() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
    DECLARE
      bad record;
      closed uuid;
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.posted_at IS NOT NULL THEN
        RETURN NULL;
      END IF;
      SELECT (e.line->>'account_id')::uuid AS account_id,
             CASE WHEN a.id IS NULL THEN 'unknown' WHEN a.is_group THEN 'group' ELSE 'archived' END AS reason
        INTO bad
        FROM jsonb_array_elements(NEW.lines) AS e(line)
        LEFT JOIN accounts a ON a.tenant_id = NEW.tenant_id AND a.id = (e.line->>'account_id')::uuid
       WHERE a.id IS NULL OR a.is_group OR a.status <> 'actif'
       LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'a posting to an account that takes none'
          USING ERRCODE = 'EP002', DETAIL = json_build_object('account_id', bad.account_id, 'reason', bad.reason)::text;
      END IF;
      SELECT p.id INTO closed FROM accounting_periods p
       WHERE p.tenant_id = NEW.tenant_id AND p.status = 'ferme'
         AND NEW.entry_date BETWEEN p.start_date AND p.end_date
       LIMIT 1;
      IF closed IS NULL THEN
        SELECT f.id INTO closed FROM fiscal_years f
         WHERE f.tenant_id = NEW.tenant_id AND f.status = 'ferme'
           AND NEW.entry_date BETWEEN f.start_date AND f.end_date
         LIMIT 1;
      END IF;
      IF closed IS NOT NULL THEN
        RAISE EXCEPTION 'a posting dated in a closed period'
          USING ERRCODE = 'EP003', DETAIL = json_build_object('date', NEW.entry_date, 'period_id', closed)::text;
      END IF;
      INSERT INTO ledger_lines (tenant_id, entry_id, line_no, journal_id, entry_number, entry_date,
        posted_at, account_id, debit_cents, credit_cents, currency, amount_currency_cents,
        customer_id, supplier_id, due_date, label)
      SELECT NEW.tenant_id, NEW.id, e.ord, NEW.journal_id, NEW.number, NEW.entry_date, NEW.posted_at,
        (e.line->>'account_id')::uuid,
        coalesce((e.line->>'debit_cents')::bigint, 0), coalesce((e.line->>'credit_cents')::bigint, 0),
        nullif(e.line->>'currency', ''), (e.line->>'amount_currency_cents')::bigint,
        (e.line->>'customer_id')::uuid, (e.line->>'supplier_id')::uuid,
        (e.line->>'due_date')::date, e.line->>'label'
      FROM jsonb_array_elements(NEW.lines) WITH ORDINALITY AS e(line, ord);
      INSERT INTO account_balances AS b (tenant_id, account_id, month, debit_cents, credit_cents)
      SELECT NEW.tenant_id, (e.line->>'account_id')::uuid, date_trunc('month', NEW.entry_date)::date,
        sum(coalesce((e.line->>'debit_cents')::bigint, 0)), sum(coalesce((e.line->>'credit_cents')::bigint, 0))
      FROM jsonb_array_elements(NEW.lines) AS e(line)
      GROUP BY 2
      ON CONFLICT (tenant_id, account_id, month) DO UPDATE
        SET debit_cents = b.debit_cents + excluded.debit_cents,
            credit_cents = b.credit_cents + excluded.credit_cents;
      RETURN NULL;
    END
    $fn$;
    CREATE TRIGGER journal_entries_post AFTER INSERT OR UPDATE OF posted_at ON journal_entries
      FOR EACH ROW WHEN (NEW.posted_at IS NOT NULL) EXECUTE FUNCTION erp_ledger_post();

    -- Existing entries marked posted: one that the rules above accept enters the ledger; one that
    -- does not (unbalanced, an unusable account, a closed period) was never a valid posting and
    -- goes back to draft.
    UPDATE journal_entries j SET status = 'brouillon'
    WHERE j.status IN ('comptabilise', 'annule') AND (
      NOT erp_entry_balanced(j.lines)
      OR EXISTS (
        SELECT 1 FROM jsonb_array_elements(j.lines) e(line)
        LEFT JOIN accounts a ON a.tenant_id = j.tenant_id AND a.id = (e.line->>'account_id')::uuid
        WHERE a.id IS NULL OR a.is_group OR a.status <> 'actif')
      OR EXISTS (
        SELECT 1 FROM accounting_periods p WHERE p.tenant_id = j.tenant_id AND p.status = 'ferme'
          AND j.entry_date BETWEEN p.start_date AND p.end_date)
      OR EXISTS (
        SELECT 1 FROM fiscal_years f WHERE f.tenant_id = j.tenant_id AND f.status = 'ferme'
          AND j.entry_date BETWEEN f.start_date AND f.end_date));
    UPDATE journal_entries SET posted_at = updated_at WHERE status IN ('comptabilise', 'annule');
  `)
    .execute(db);

  // Settlement: amounts and derived statuses, checked and moved by the allocations themselves.
  await sql
    .raw(`
    ${DOCUMENTS.map(
      (t) => `
    UPDATE ${t} SET amount_due_cents = total_cents
      WHERE status IN ('emis', 'approuve', 'partiellement_paye');
    ALTER TABLE ${t} ADD CONSTRAINT ${t}_amount_due_within CHECK (amount_due_cents BETWEEN 0 AND greatest(total_cents, 0));`,
    ).join('\n')}
    UPDATE payments SET unallocated_cents = amount_cents;
    ALTER TABLE payments ADD CONSTRAINT payments_allocated_within
      CHECK (allocated_cents BETWEEN 0 AND amount_cents AND unallocated_cents = amount_cents - allocated_cents);

    CREATE FUNCTION erp_settle(p_tenant uuid, p_table text, p_id uuid, p_cents bigint) RETURNS void
    LANGUAGE plpgsql AS $fn$
    BEGIN
      EXECUTE format(
        'UPDATE %I d SET amount_due_cents = d.amount_due_cents - $3,
           status = CASE
             WHEN d.amount_due_cents - $3 = 0 THEN CASE $4 WHEN ''credit_notes'' THEN ''impute'' WHEN ''debit_notes'' THEN ''impute'' ELSE ''paye'' END
             WHEN d.amount_due_cents - $3 < d.total_cents THEN ''partiellement_paye''
             ELSE CASE $4 WHEN ''supplier_invoices'' THEN ''approuve'' ELSE ''emis'' END END,
           version = d.version + 1, updated_at = now()
         WHERE d.tenant_id = $1 AND d.id = $2', p_table)
        USING p_tenant, p_id, p_cents, p_table;
    END
    $fn$;
  `)
    .execute(db);

  await sql`
    CREATE FUNCTION erp_allocation_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
    DECLARE
      a payment_allocations;
      sign integer;
      targets integer;
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        a := OLD; sign := -1;
        PERFORM erp_allocation_move(a, sign);
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        a := NEW; sign := 1;
        targets := (a.invoice_id IS NOT NULL)::int + (a.supplier_invoice_id IS NOT NULL)::int
                 + (a.credit_note_id IS NOT NULL)::int + (a.debit_note_id IS NOT NULL)::int;
        IF NOT ((a.payment_id IS NOT NULL AND targets = 1)
             OR (a.payment_id IS NULL AND targets = 2
                 AND ((a.credit_note_id IS NOT NULL AND a.invoice_id IS NOT NULL)
                   OR (a.debit_note_id IS NOT NULL AND a.supplier_invoice_id IS NOT NULL)))) THEN
          RAISE EXCEPTION 'an allocation applies a payment to one document, or a credit (debit) note to an invoice (supplier invoice)'
            USING ERRCODE = 'EP007', DETAIL = json_build_object('reason', 'sides')::text;
        END IF;
        PERFORM erp_allocation_move(a, sign);
      END IF;
      RETURN NULL;
    END
    $fn$;
  `.execute(db);

  await sql`
    -- One side of an allocation moved by sign × its amount: checked, then applied, rows locked.
    CREATE FUNCTION erp_allocation_move(a payment_allocations, sign integer) RETURNS void
    LANGUAGE plpgsql AS $fn$
    DECLARE
      pay record;
      side record;
      party uuid;
      currency text;
      amount bigint := a.amount_cents * sign;
      total_settle bigint;
    BEGIN
      IF a.payment_id IS NOT NULL THEN
        SELECT p.id, p.status, p.unallocated_cents, p.currency, coalesce(p.customer_id, p.supplier_id) AS party
          INTO pay FROM payments p WHERE p.tenant_id = a.tenant_id AND p.id = a.payment_id FOR UPDATE;
        IF sign > 0 AND pay.status <> 'comptabilise' THEN
          RAISE EXCEPTION 'the payment is not posted' USING ERRCODE = 'EP007',
            DETAIL = json_build_object('reason', 'not_posted', 'payment_id', a.payment_id)::text;
        END IF;
        IF sign > 0 AND a.amount_cents > pay.unallocated_cents THEN
          RAISE EXCEPTION 'more than the payment has left' USING ERRCODE = 'EP004',
            DETAIL = json_build_object('available_cents', pay.unallocated_cents, 'side', 'payment')::text;
        END IF;
        UPDATE payments SET allocated_cents = allocated_cents + amount,
          unallocated_cents = unallocated_cents - amount, version = version + 1, updated_at = now()
        WHERE tenant_id = a.tenant_id AND id = a.payment_id;
        party := pay.party; currency := pay.currency;
      END IF;
      FOR side IN
        SELECT * FROM (VALUES
          ('invoices', a.invoice_id, 'customer_id'),
          ('supplier_invoices', a.supplier_invoice_id, 'supplier_id'),
          ('credit_notes', a.credit_note_id, 'customer_id'),
          ('debit_notes', a.debit_note_id, 'supplier_id')) AS v(tbl, id, party_column)
        WHERE v.id IS NOT NULL
      LOOP
        total_settle := (a.amount_cents + CASE WHEN side.tbl IN ('invoices', 'supplier_invoices')
                          THEN coalesce(a.write_off_cents, 0) ELSE 0 END) * sign;
        EXECUTE format(
          'SELECT d.status, d.amount_due_cents, d.currency, d.%I AS party FROM %I d
            WHERE d.tenant_id = $1 AND d.id = $2 FOR UPDATE', side.party_column, side.tbl)
          INTO pay USING a.tenant_id, side.id;
        IF sign > 0 AND pay.status NOT IN ('emis', 'approuve', 'partiellement_paye') THEN
          RAISE EXCEPTION 'the document is not posted, or already settled' USING ERRCODE = 'EP007',
            DETAIL = json_build_object('reason', 'not_posted', 'document_id', side.id, 'status', pay.status)::text;
        END IF;
        IF sign > 0 AND total_settle > pay.amount_due_cents THEN
          RAISE EXCEPTION 'more than the document still owes' USING ERRCODE = 'EP004',
            DETAIL = json_build_object('available_cents', pay.amount_due_cents, 'side', 'document', 'document_id', side.id)::text;
        END IF;
        IF sign > 0 AND party IS NOT NULL AND pay.party IS DISTINCT FROM party THEN
          RAISE EXCEPTION 'the two sides name different parties' USING ERRCODE = 'EP007',
            DETAIL = json_build_object('reason', 'party')::text;
        END IF;
        IF sign > 0 AND currency IS NOT NULL AND pay.currency IS DISTINCT FROM currency THEN
          RAISE EXCEPTION 'the two sides are in different currencies' USING ERRCODE = 'EP007',
            DETAIL = json_build_object('reason', 'currency')::text;
        END IF;
        party := pay.party; currency := pay.currency;
        PERFORM erp_settle(a.tenant_id, side.tbl, side.id, total_settle);
      END LOOP;
    END
    $fn$;

    CREATE TRIGGER payment_allocations_apply AFTER INSERT OR UPDATE OR DELETE ON payment_allocations
      FOR EACH ROW EXECUTE FUNCTION erp_allocation_apply();
  `.execute(db);

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

export async function down(): Promise<void> {
  throw new Error('2026-11-28-0031-ledger cannot be reverted alone: recreate the database');
}
