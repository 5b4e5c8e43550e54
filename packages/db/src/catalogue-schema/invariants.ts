import { identifier } from './identifier';

/**
 * The rules of the books and the goods that PostgreSQL keeps on catalogue tables (SPEC §17,
 * §18), as part of the generated schema: a declaration's part in the books (`ledgerRole`, a
 * lifecycle's `settlement`) or its conversions name an invariant, and this file is its SQL: CHECKs over the row's own data,
 * and triggers that read or write only their own tenant's rows (so they still hold when the
 * tables are distributed by tenant, SPEC §19). The ledger's own tables (`ledger_lines`,
 * `account_balances`) and `erp_entry_balanced` come from migration 0030.
 *
 * Errors raised carry SQLSTATE `EP0xx` and their parameters as JSON in DETAIL; the portal turns
 * them into the catalogue's codes (resources/pg-errors.ts).
 */
export const INVARIANTS = ['allocated', 'allocation', 'counted', 'ledger', 'settled'] as const;
export type Invariant = (typeof INVARIANTS)[number];

interface InvariantSql {
  /** Constraint and trigger names it creates: how a migrated table is recognised to have it. */
  names: string[];
  create: string;
  drop: string;
}

export function invariantSql(invariant: Invariant, table: string): InvariantSql {
  const t = identifier(table);
  return SQL[invariant](t);
}

const SQL: Record<Invariant, (t: string) => InvariantSql> = {
  // A settled document never owes less than nothing nor more than its total.
  settled: (t) => ({
    names: [`${t}_amount_due_within`],
    create: `ALTER TABLE ${t} ADD CONSTRAINT ${t}_amount_due_within CHECK (amount_due_cents >= 0 AND amount_due_cents <= GREATEST(total_cents, 0));\n`,
    drop: `ALTER TABLE ${t} DROP CONSTRAINT ${t}_amount_due_within;\n`,
  }),

  // A conversion's source (SPEC §18): what its targets counted on each line stays between 0
  // and the line's quantity (erp_lines_counted_within: migration 0035).
  counted: (t) => ({
    names: [`${t}_counted_within`],
    create: `ALTER TABLE ${t} ADD CONSTRAINT ${t}_counted_within CHECK (erp_lines_counted_within(lines));\n`,
    drop: `ALTER TABLE ${t} DROP CONSTRAINT ${t}_counted_within;\n`,
  }),

  // A payment's allocations stay within its amount.
  allocated: (t) => ({
    names: [`${t}_allocated_within`],
    create: `ALTER TABLE ${t} ADD CONSTRAINT ${t}_allocated_within CHECK (allocated_cents >= 0 AND allocated_cents <= amount_cents);\n`,
    drop: `ALTER TABLE ${t} DROP CONSTRAINT ${t}_allocated_within;\n`,
  }),

  // Journal entries: a posted one balances (a CHECK over its own lines) and is final; posting
  // writes its lines to the ledger and the month's balances, checking accounts and periods.
  ledger: (t) => ({
    names: [`${t}_posted_balanced`, `${t}_posted_final`, `${t}_post`],
    create: `ALTER TABLE ${t} ADD CONSTRAINT ${t}_posted_balanced CHECK (posted_at IS NULL OR erp_entry_balanced(lines));
CREATE FUNCTION ${t}_posted_final() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- A tenant's deletion cascades to its entries: the foreign key's own trigger is the caller.
  IF pg_trigger_depth() > 1 OR OLD.posted_at IS NULL THEN
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.status = 'comptabilise' AND NEW.status IN ('comptabilise', 'annule')
     AND (to_jsonb(NEW) - ARRAY['status', 'version', 'updated_at'])
       = (to_jsonb(OLD) - ARRAY['status', 'version', 'updated_at']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'a posted journal entry is final: reverse it instead'
    USING ERRCODE = 'EP006', DETAIL = json_build_object('entry_id', OLD.id, 'operation', lower(TG_OP))::text;
END
$fn$;
CREATE TRIGGER ${t}_posted_final BEFORE UPDATE OR DELETE ON ${t}
  FOR EACH ROW EXECUTE FUNCTION ${t}_posted_final();
CREATE FUNCTION ${t}_post() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
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
CREATE TRIGGER ${t}_post AFTER INSERT OR UPDATE OF posted_at ON ${t}
  FOR EACH ROW WHEN (NEW.posted_at IS NOT NULL) EXECUTE FUNCTION ${t}_post();
`,
    drop: `DROP TRIGGER ${t}_post ON ${t};
DROP FUNCTION ${t}_post();
DROP TRIGGER ${t}_posted_final ON ${t};
DROP FUNCTION ${t}_posted_final();
ALTER TABLE ${t} DROP CONSTRAINT ${t}_posted_balanced;
`,
  }),

  // Payment allocations: checked (both sides posted, the same party and currency, within what
  // each has left) and applied to the payment and the documents, rows locked; deleting one
  // gives back what it took. Statuses follow `amount_due_cents`. The locks are FOR NO KEY
  // UPDATE: the allocation's own foreign keys hold FOR KEY SHARE on the same rows, which FOR
  // UPDATE would wait on (two concurrent allocations of one invoice would deadlock).
  allocation: (t) => ({
    names: [`${t}_apply`],
    create: `CREATE FUNCTION ${t}_settle(p_tenant uuid, p_table text, p_id uuid, p_cents bigint) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format(
    'UPDATE %I d SET amount_due_cents = d.amount_due_cents - $3,
       status = CASE
         WHEN d.amount_due_cents - $3 = 0
           THEN CASE WHEN $4 IN (''credit_notes'', ''debit_notes'') THEN ''impute'' ELSE ''paye'' END
         WHEN d.amount_due_cents - $3 < d.total_cents THEN ''partiellement_paye''
         ELSE CASE $4 WHEN ''supplier_invoices'' THEN ''approuve'' ELSE ''emis'' END END,
       version = d.version + 1, updated_at = now()
     WHERE d.tenant_id = $1 AND d.id = $2', p_table)
    USING p_tenant, p_id, p_cents, p_table;
END
$fn$;
CREATE FUNCTION ${t}_move(
  p_tenant uuid, p_payment uuid, p_invoice uuid, p_supplier_invoice uuid, p_credit_note uuid,
  p_debit_note uuid, p_amount bigint, p_write_off bigint, sign integer
) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  pay record;
  doc record;
  side record;
  party uuid;
  currency text;
  direction text;
  settle bigint;
BEGIN
  IF p_payment IS NOT NULL THEN
    SELECT p.status, p.unallocated_cents, p.currency, p.direction, coalesce(p.customer_id, p.supplier_id) AS party
      INTO pay FROM payments p WHERE p.tenant_id = p_tenant AND p.id = p_payment FOR NO KEY UPDATE;
    IF sign > 0 AND pay.status IS DISTINCT FROM 'comptabilise' THEN
      RAISE EXCEPTION 'the payment is not posted' USING ERRCODE = 'EP007',
        DETAIL = json_build_object('reason', 'not_posted', 'payment_id', p_payment, 'status', pay.status)::text;
    END IF;
    IF sign > 0 AND p_amount > pay.unallocated_cents THEN
      RAISE EXCEPTION 'more than the payment has left' USING ERRCODE = 'EP004',
        DETAIL = json_build_object('available_cents', pay.unallocated_cents, 'payment_id', p_payment)::text;
    END IF;
    UPDATE payments SET allocated_cents = allocated_cents + sign * p_amount,
      unallocated_cents = unallocated_cents - sign * p_amount,
      version = version + 1, updated_at = now()
    WHERE tenant_id = p_tenant AND id = p_payment;
    party := pay.party;
    currency := pay.currency;
    direction := pay.direction;
  END IF;
  FOR side IN
    SELECT v.tbl, v.id, v.party_column FROM (VALUES
      ('invoices', p_invoice, 'customer_id'),
      ('supplier_invoices', p_supplier_invoice, 'supplier_id'),
      ('credit_notes', p_credit_note, 'customer_id'),
      ('debit_notes', p_debit_note, 'supplier_id')) AS v(tbl, id, party_column)
    WHERE v.id IS NOT NULL
  LOOP
    settle := sign * (p_amount + CASE WHEN side.tbl IN ('invoices', 'supplier_invoices')
                                         THEN coalesce(p_write_off, 0) ELSE 0 END);
    EXECUTE format('SELECT d.status, d.amount_due_cents, d.currency, d.%I AS party FROM %I d
                     WHERE d.tenant_id = $1 AND d.id = $2 FOR NO KEY UPDATE', side.party_column, side.tbl)
      INTO doc USING p_tenant, side.id;
    IF sign > 0 AND doc.status NOT IN ('emis', 'approuve', 'partiellement_paye', 'paye', 'impute') THEN
      RAISE EXCEPTION 'the document is not posted' USING ERRCODE = 'EP007',
        DETAIL = json_build_object('reason', 'not_posted', 'document_id', side.id, 'status', doc.status)::text;
    END IF;
    -- Money in settles what is owed to us (an invoice, a supplier's debit note); money out what
    -- we owe (a supplier invoice, a customer's credit note: a refund).
    IF sign > 0 AND p_payment IS NOT NULL AND direction IS DISTINCT FROM
       (CASE WHEN side.tbl IN ('invoices', 'debit_notes') THEN 'incoming' ELSE 'outgoing' END) THEN
      RAISE EXCEPTION 'the payment goes the other way' USING ERRCODE = 'EP007',
        DETAIL = json_build_object('reason', 'direction', 'payment_id', p_payment, 'direction', direction)::text;
    END IF;
    IF sign > 0 AND settle > doc.amount_due_cents THEN
      RAISE EXCEPTION 'more than the document still owes' USING ERRCODE = 'EP004',
        DETAIL = json_build_object('available_cents', doc.amount_due_cents, 'document_id', side.id)::text;
    END IF;
    IF sign > 0 AND party IS NOT NULL AND doc.party IS DISTINCT FROM party THEN
      RAISE EXCEPTION 'the two sides name different parties' USING ERRCODE = 'EP007',
        DETAIL = json_build_object('reason', 'party')::text;
    END IF;
    IF sign > 0 AND currency IS NOT NULL AND doc.currency IS DISTINCT FROM currency THEN
      RAISE EXCEPTION 'the two sides are in different currencies' USING ERRCODE = 'EP007',
        DETAIL = json_build_object('reason', 'currency')::text;
    END IF;
    party := doc.party;
    currency := doc.currency;
    PERFORM ${t}_settle(p_tenant, side.tbl, side.id, settle);
  END LOOP;
END
$fn$;
CREATE FUNCTION ${t}_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  targets integer;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM ${t}_move(OLD.tenant_id, OLD.payment_id, OLD.invoice_id, OLD.supplier_invoice_id,
      OLD.credit_note_id, OLD.debit_note_id, OLD.amount_cents, OLD.write_off_cents, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    targets := (NEW.invoice_id IS NOT NULL)::int + (NEW.supplier_invoice_id IS NOT NULL)::int
             + (NEW.credit_note_id IS NOT NULL)::int + (NEW.debit_note_id IS NOT NULL)::int;
    IF NOT ((NEW.payment_id IS NOT NULL AND targets = 1)
         OR (NEW.payment_id IS NULL AND targets = 2
             AND ((NEW.credit_note_id IS NOT NULL AND NEW.invoice_id IS NOT NULL)
               OR (NEW.debit_note_id IS NOT NULL AND NEW.supplier_invoice_id IS NOT NULL)))) THEN
      RAISE EXCEPTION 'an allocation applies a payment to one document, or a credit (debit) note to an invoice (a supplier invoice)'
        USING ERRCODE = 'EP007', DETAIL = json_build_object('reason', 'sides')::text;
    END IF;
    PERFORM ${t}_move(NEW.tenant_id, NEW.payment_id, NEW.invoice_id, NEW.supplier_invoice_id,
      NEW.credit_note_id, NEW.debit_note_id, NEW.amount_cents, NEW.write_off_cents, 1);
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER ${t}_apply AFTER INSERT OR UPDATE OR DELETE ON ${t}
  FOR EACH ROW EXECUTE FUNCTION ${t}_apply();
`,
    drop: `DROP TRIGGER ${t}_apply ON ${t};
DROP FUNCTION ${t}_apply();
DROP FUNCTION ${t}_move(uuid, uuid, uuid, uuid, uuid, uuid, bigint, bigint, integer);
DROP FUNCTION ${t}_settle(uuid, text, uuid, bigint);
`,
  }),
};
