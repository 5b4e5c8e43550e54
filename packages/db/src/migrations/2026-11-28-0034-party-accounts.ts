import { type Kysely, sql } from 'kysely';

/**
 * Receivable and payable accounts are the parties' ledgers (SPEC §17; ERPNext's "Party Type and
 * Party is required for Receivable / Payable account"): a posted line on an account of
 * `sub_type` receivable names a customer and a line naming a customer posts to such an account
 * (payable and suppliers alike), else `compte_invalide` (reason `party_required` or
 * `not_party_account`). The aged receivables and payables, read from the party lines, are then
 * the receivable and payable accounts' balances by construction. The same function is generated
 * by catalogue-schema/invariants.ts for a table made from scratch.
 *
 * Accounts a tenant already uses as such get their `sub_type` (the settings' receivable and
 * payable accounts, and those its party lines already post to; a customer's or supplier's own
 * account of another kind is then refused when it is posted to, as a misconfiguration):
 * row-level security is lifted for the owner inside the migration, so every tenant's rows are
 * seen.
 *
 * Changes objects of the generated migrations (the body of 0031's `journal_entries_post`, as
 * 0032 left it): the schema tests take it down and up with them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(POST_NOW).execute(db);
  await sql`
    ALTER TABLE accounts NO FORCE ROW LEVEL SECURITY;
    UPDATE accounts a SET sub_type = 'receivable' WHERE a.sub_type IS NULL AND (
      EXISTS (SELECT FROM accounting_settings s WHERE s.tenant_id = a.tenant_id AND s.receivable_account_id = a.id)
      OR EXISTS (SELECT FROM ledger_lines l WHERE l.tenant_id = a.tenant_id AND l.account_id = a.id AND l.customer_id IS NOT NULL));
    UPDATE accounts a SET sub_type = 'payable' WHERE a.sub_type IS NULL AND (
      EXISTS (SELECT FROM accounting_settings s WHERE s.tenant_id = a.tenant_id AND s.payable_account_id = a.id)
      OR EXISTS (SELECT FROM ledger_lines l WHERE l.tenant_id = a.tenant_id AND l.account_id = a.id AND l.supplier_id IS NOT NULL));
    ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(POST_BEFORE).execute(db);
}

const POST_NOW = `CREATE OR REPLACE FUNCTION journal_entries_post() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
  bad record;
  closed uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.posted_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  -- One pass over the lines: the ledger and the month's balances written, and the first line
  -- whose account takes no posting read back (raising then undoes the writes).
  WITH l AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(NEW.lines) AS (account_id uuid, debit_cents bigint,
      credit_cents bigint, currency text, amount_currency_cents bigint, customer_id uuid,
      supplier_id uuid, due_date date, label text)) WITH ORDINALITY
      AS l (account_id, debit_cents, credit_cents, currency, amount_currency_cents, customer_id,
        supplier_id, due_date, label, ord)
  ), ledger AS (
    INSERT INTO ledger_lines (tenant_id, entry_id, line_no, journal_id, entry_number, entry_date,
      posted_at, account_id, debit_cents, credit_cents, currency, amount_currency_cents,
      customer_id, supplier_id, due_date, label)
    SELECT NEW.tenant_id, NEW.id, l.ord, NEW.journal_id, NEW.number, NEW.entry_date, NEW.posted_at,
      l.account_id, coalesce(l.debit_cents, 0), coalesce(l.credit_cents, 0), nullif(l.currency, ''),
      l.amount_currency_cents, l.customer_id, l.supplier_id, l.due_date, l.label
    FROM l
  ), balances AS (
    INSERT INTO account_balances AS b (tenant_id, account_id, month, debit_cents, credit_cents)
    SELECT NEW.tenant_id, l.account_id, date_trunc('month', NEW.entry_date)::date,
      sum(coalesce(l.debit_cents, 0)), sum(coalesce(l.credit_cents, 0))
    FROM l GROUP BY l.account_id
    ON CONFLICT (tenant_id, account_id, month) DO UPDATE
      SET debit_cents = b.debit_cents + excluded.debit_cents, credit_cents = b.credit_cents + excluded.credit_cents
  )
  -- A receivable (payable) account is the customers' (suppliers') ledger: each of its lines
  -- names one, and a line naming one posts to such an account (so the aged reports are the
  -- accounts' balances).
  SELECT l.account_id,
         CASE WHEN a.id IS NULL THEN 'unknown' WHEN a.is_group THEN 'group'
              WHEN a.status <> 'actif' THEN 'archived'
              WHEN l.customer_id IS NOT NULL OR l.supplier_id IS NOT NULL THEN 'not_party_account'
              ELSE 'party_required' END AS reason
    INTO bad
    FROM l LEFT JOIN accounts a ON a.tenant_id = NEW.tenant_id AND a.id = l.account_id
   WHERE a.id IS NULL OR a.is_group OR a.status <> 'actif'
      OR (a.sub_type IS NOT DISTINCT FROM 'receivable') <> (l.customer_id IS NOT NULL)
      OR (a.sub_type IS NOT DISTINCT FROM 'payable') <> (l.supplier_id IS NOT NULL)
   ORDER BY l.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'a posting to an account that takes none'
      USING ERRCODE = 'EP002', DETAIL = json_build_object('account_id', bad.account_id, 'reason', bad.reason)::text;
  END IF;
  SELECT coalesce(
      (SELECT p.id FROM accounting_periods p
        WHERE p.tenant_id = NEW.tenant_id AND p.status = 'ferme' AND NEW.entry_date BETWEEN p.start_date AND p.end_date
        LIMIT 1),
      (SELECT f.id FROM fiscal_years f
        WHERE f.tenant_id = NEW.tenant_id AND f.status = 'ferme' AND NEW.entry_date BETWEEN f.start_date AND f.end_date
        LIMIT 1))
    INTO closed;
  IF closed IS NOT NULL THEN
    RAISE EXCEPTION 'a posting dated in a closed period'
      USING ERRCODE = 'EP003', DETAIL = json_build_object('date', NEW.entry_date, 'period_id', closed)::text;
  END IF;
  RETURN NULL;
END
$fn$;
`;

const POST_BEFORE = `CREATE OR REPLACE FUNCTION journal_entries_post() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE
  bad record;
  closed uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.posted_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  -- One pass over the lines: the ledger and the month's balances written, and the first line
  -- whose account takes no posting read back (raising then undoes the writes).
  WITH l AS MATERIALIZED (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(NEW.lines) AS (account_id uuid, debit_cents bigint,
      credit_cents bigint, currency text, amount_currency_cents bigint, customer_id uuid,
      supplier_id uuid, due_date date, label text)) WITH ORDINALITY
      AS l (account_id, debit_cents, credit_cents, currency, amount_currency_cents, customer_id,
        supplier_id, due_date, label, ord)
  ), ledger AS (
    INSERT INTO ledger_lines (tenant_id, entry_id, line_no, journal_id, entry_number, entry_date,
      posted_at, account_id, debit_cents, credit_cents, currency, amount_currency_cents,
      customer_id, supplier_id, due_date, label)
    SELECT NEW.tenant_id, NEW.id, l.ord, NEW.journal_id, NEW.number, NEW.entry_date, NEW.posted_at,
      l.account_id, coalesce(l.debit_cents, 0), coalesce(l.credit_cents, 0), nullif(l.currency, ''),
      l.amount_currency_cents, l.customer_id, l.supplier_id, l.due_date, l.label
    FROM l
  ), balances AS (
    INSERT INTO account_balances AS b (tenant_id, account_id, month, debit_cents, credit_cents)
    SELECT NEW.tenant_id, l.account_id, date_trunc('month', NEW.entry_date)::date,
      sum(coalesce(l.debit_cents, 0)), sum(coalesce(l.credit_cents, 0))
    FROM l GROUP BY l.account_id
    ON CONFLICT (tenant_id, account_id, month) DO UPDATE
      SET debit_cents = b.debit_cents + excluded.debit_cents, credit_cents = b.credit_cents + excluded.credit_cents
  )
  SELECT l.account_id,
         CASE WHEN a.id IS NULL THEN 'unknown' WHEN a.is_group THEN 'group' ELSE 'archived' END AS reason
    INTO bad
    FROM l LEFT JOIN accounts a ON a.tenant_id = NEW.tenant_id AND a.id = l.account_id
   WHERE a.id IS NULL OR a.is_group OR a.status <> 'actif'
   ORDER BY l.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'a posting to an account that takes none'
      USING ERRCODE = 'EP002', DETAIL = json_build_object('account_id', bad.account_id, 'reason', bad.reason)::text;
  END IF;
  SELECT coalesce(
      (SELECT p.id FROM accounting_periods p
        WHERE p.tenant_id = NEW.tenant_id AND p.status = 'ferme' AND NEW.entry_date BETWEEN p.start_date AND p.end_date
        LIMIT 1),
      (SELECT f.id FROM fiscal_years f
        WHERE f.tenant_id = NEW.tenant_id AND f.status = 'ferme' AND NEW.entry_date BETWEEN f.start_date AND f.end_date
        LIMIT 1))
    INTO closed;
  IF closed IS NOT NULL THEN
    RAISE EXCEPTION 'a posting dated in a closed period'
      USING ERRCODE = 'EP003', DETAIL = json_build_object('date', NEW.entry_date, 'period_id', closed)::text;
  END IF;
  RETURN NULL;
END
$fn$;
`;
