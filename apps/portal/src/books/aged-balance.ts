import type pg from 'pg';

const SIDES = {
  receivables: {
    party: 'customer_id',
    parties: 'customers',
    sign: 1,
    // the direction of the party's payments (the other one is a refund)
    paying: 'incoming',
    // document table, its date of reckoning, the allocation column
    documents: [
      { table: 'invoices', date: 'due_date', column: 'invoice_id', sign: -1 },
      { table: 'credit_notes', date: 'credit_note_date', column: 'credit_note_id', sign: 1 },
    ],
  },
  payables: {
    party: 'supplier_id',
    parties: 'suppliers',
    sign: -1,
    paying: 'outgoing',
    documents: [
      { table: 'supplier_invoices', date: 'due_date', column: 'supplier_invoice_id', sign: -1 },
      { table: 'debit_notes', date: 'debit_note_date', column: 'debit_note_id', sign: 1 },
    ],
  },
} as const;

/**
 * Aged receivables or payables at a day (SPEC §17), from the ledger: every party line posted by
 * then, in the bucket of its due date (a payment's or a credit note's line has none: its own
 * date), signed so that what is owed is positive; then each allocation made by then moves what
 * it settles out of the document's bucket and into the payment's (or the credit note's). The
 * moves net to zero per party, so each party's total is its balance on the ledger's party lines,
 * and the sum of the totals the receivable (payable) accounts' balance in the trial balance.
 */
export async function agedBalance(
  client: pg.PoolClient,
  tenantId: string,
  side: keyof typeof SIDES,
  query: { at?: string },
  today: Date,
) {
  const at = query.at ?? today.toISOString().slice(0, 10);
  const s = SIDES[side];
  const moves = s.documents
    .map(
      (d) => `
       SELECT x.${s.party} AS party, x.${d.date} AS day, ${d.sign} * a.amount_cents AS amount
         FROM payment_allocations a JOIN ${d.table} x ON x.tenant_id = a.tenant_id AND x.id = a.${d.column}
        WHERE a.tenant_id = $1 AND a.allocation_date <= $2::date`,
    )
    .join(' UNION ALL ');
  const { rows } = await client.query<{
    party: string;
    name: string;
    not_due: string;
    d1_30: string;
    d31_60: string;
    d61_90: string;
    over_90: string;
  }>(
    `WITH items AS (
       SELECT l.${s.party} AS party, coalesce(l.due_date, l.entry_date) AS day,
              ${s.sign} * (l.debit_cents - l.credit_cents) AS amount
         FROM ledger_lines l
        WHERE l.tenant_id = $1 AND l.${s.party} IS NOT NULL AND l.entry_date <= $2::date
       UNION ALL
       -- A payment's side of an allocation: back toward zero, in the payment's own date (a
       -- refund, money going the other way, from the other side).
       SELECT coalesce(p.customer_id, p.supplier_id), p.paid_on,
              CASE WHEN p.direction = '${s.paying}' THEN a.amount_cents ELSE -a.amount_cents END
         FROM payment_allocations a JOIN payments p ON p.tenant_id = a.tenant_id AND p.id = a.payment_id
        WHERE a.tenant_id = $1 AND a.allocation_date <= $2::date
          AND p.${s.party} IS NOT NULL
       UNION ALL ${moves}),
     aged AS (
       SELECT party, $2::date - day AS late, amount FROM items)
     SELECT g.party, coalesce(c.name, '') AS name,
            sum(amount) FILTER (WHERE late <= 0)::text AS not_due,
            sum(amount) FILTER (WHERE late BETWEEN 1 AND 30)::text AS d1_30,
            sum(amount) FILTER (WHERE late BETWEEN 31 AND 60)::text AS d31_60,
            sum(amount) FILTER (WHERE late BETWEEN 61 AND 90)::text AS d61_90,
            sum(amount) FILTER (WHERE late > 90)::text AS over_90
       FROM aged g LEFT JOIN ${s.parties} c ON c.tenant_id = $1 AND c.id = g.party
      GROUP BY g.party, c.name
     HAVING sum(amount) <> 0 OR bool_or(amount <> 0)
      ORDER BY c.name, g.party`,
    [tenantId, at],
  );
  const parties = rows.map((r) => {
    const amounts = {
      not_due_cents: Number(r.not_due ?? 0),
      d1_30_cents: Number(r.d1_30 ?? 0),
      d31_60_cents: Number(r.d31_60 ?? 0),
      d61_90_cents: Number(r.d61_90 ?? 0),
      over_90_cents: Number(r.over_90 ?? 0),
    };
    const total = Object.values(amounts).reduce((a, b) => a + b, 0);
    return { party_id: r.party, name: r.name, ...amounts, total_cents: total };
  });
  const keys = [
    'not_due_cents',
    'd1_30_cents',
    'd31_60_cents',
    'd61_90_cents',
    'over_90_cents',
    'total_cents',
  ] as const;
  const totals = Object.fromEntries(
    keys.map((k) => [k, parties.reduce((a, p) => a + p[k], 0)]),
  ) as Record<(typeof keys)[number], number>;
  const currency = await client.query<{ company_currency: string }>(
    'SELECT company_currency FROM accounting_settings WHERE tenant_id = $1',
    [tenantId],
  );
  return { at, currency: currency.rows[0]?.company_currency ?? 'EUR', parties, totals };
}
