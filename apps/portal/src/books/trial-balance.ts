import { ApiError } from '@erp/contract';
import type pg from 'pg';

/**
 * The trial balance over [from, to] (SPEC §17), from the ledger only. What an account holds
 * before a day d is the sum of its monthly balances before d's month plus its lines from the
 * first of d's month to d (excluded): opening = before(from), closing = before(to + 1), and the
 * movements the difference of the two, debit and credit apart. Only the lines of the two
 * partial months are read; whole months come from `account_balances`, so the cost follows the
 * accounts and the months, not the history (docs/decisions.md, The books).
 */
export async function trialBalance(
  client: pg.PoolClient,
  tenantId: string,
  query: { from?: string; to?: string },
  today: Date,
) {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? `${to.slice(0, 4)}-01-01`;
  if (from > to)
    throw new ApiError('requete_invalide', '`from` comes after `to`.', {
      issues: [{ location: 'query', path: 'from', code: 'after_to', message: 'after `to`' }],
    });
  const { rows } = await client.query<{
    account_id: string;
    code: string;
    name: string;
    opening: string;
    debit: string;
    credit: string;
    closing: string;
  }>(
    `WITH bounds AS (
       SELECT $2::date AS d1, ($3::date + 1) AS d2,
              date_trunc('month', $2::date)::date AS m1, date_trunc('month', $3::date + 1)::date AS m2),
     months AS (
       SELECT b.account_id,
              sum(b.debit_cents) FILTER (WHERE b.month < x.m1) AS d1_debit,
              sum(b.credit_cents) FILTER (WHERE b.month < x.m1) AS d1_credit,
              sum(b.debit_cents) AS d2_debit, sum(b.credit_cents) AS d2_credit
         FROM account_balances b, bounds x
        WHERE b.tenant_id = $1 AND b.month < x.m2
        GROUP BY b.account_id),
     partial AS (
       SELECT l.account_id,
              sum(l.debit_cents) FILTER (WHERE l.entry_date >= x.m1 AND l.entry_date < x.d1) AS d1_debit,
              sum(l.credit_cents) FILTER (WHERE l.entry_date >= x.m1 AND l.entry_date < x.d1) AS d1_credit,
              sum(l.debit_cents) FILTER (WHERE l.entry_date >= x.m2 AND l.entry_date < x.d2) AS d2_debit,
              sum(l.credit_cents) FILTER (WHERE l.entry_date >= x.m2 AND l.entry_date < x.d2) AS d2_credit
         FROM ledger_lines l, bounds x
        WHERE l.tenant_id = $1
          AND ((l.entry_date >= x.m1 AND l.entry_date < x.d1) OR (l.entry_date >= x.m2 AND l.entry_date < x.d2))
        GROUP BY l.account_id),
     sums AS (
       SELECT coalesce(m.account_id, p.account_id) AS account_id,
              coalesce(m.d1_debit, 0) + coalesce(p.d1_debit, 0) AS d1_debit,
              coalesce(m.d1_credit, 0) + coalesce(p.d1_credit, 0) AS d1_credit,
              coalesce(m.d2_debit, 0) + coalesce(p.d2_debit, 0) AS d2_debit,
              coalesce(m.d2_credit, 0) + coalesce(p.d2_credit, 0) AS d2_credit
         FROM months m FULL JOIN partial p ON p.account_id = m.account_id)
     SELECT s.account_id, a.code, a.name,
            (s.d1_debit - s.d1_credit)::text AS opening,
            (s.d2_debit - s.d1_debit)::text AS debit,
            (s.d2_credit - s.d1_credit)::text AS credit,
            (s.d2_debit - s.d2_credit)::text AS closing
       FROM sums s JOIN accounts a ON a.tenant_id = $1 AND a.id = s.account_id
      WHERE s.d2_debit <> 0 OR s.d2_credit <> 0
      ORDER BY a.code, a.id`,
    [tenantId, from, to],
  );
  const currency = await client.query<{ company_currency: string }>(
    'SELECT company_currency FROM accounting_settings WHERE tenant_id = $1',
    [tenantId],
  );
  const accounts = rows.map((r) => ({
    account_id: r.account_id,
    code: r.code,
    name: r.name,
    opening_cents: Number(r.opening),
    debit_cents: Number(r.debit),
    credit_cents: Number(r.credit),
    closing_cents: Number(r.closing),
  }));
  const sum = (key: 'opening_cents' | 'debit_cents' | 'credit_cents' | 'closing_cents') =>
    accounts.reduce((a, r) => a + r[key], 0);
  return {
    currency: currency.rows[0]?.company_currency ?? 'EUR',
    from,
    to,
    accounts,
    totals: {
      opening_cents: sum('opening_cents'),
      debit_cents: sum('debit_cents'),
      credit_cents: sum('credit_cents'),
      closing_cents: sum('closing_cents'),
    },
  };
}
