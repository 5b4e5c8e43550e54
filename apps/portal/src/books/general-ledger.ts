import { ApiError } from '@erp/contract';
import type pg from 'pg';

/** Where a page ended: its last line's key, the running balance there, and the opening. */
interface Position {
  d: string;
  p: string;
  e: string;
  n: number;
  b: number;
  o: number;
}

/**
 * An account's ledger lines over [from, to] with the running balance (SPEC §17), keyset
 * paginated on (entry date, posting time, entry, line). The opening balance is the trial
 * balance's way (monthly balances, then the partial month's lines); the cursor carries the
 * running balance, so each page reads only its own lines.
 */
export async function generalLedger(
  client: pg.PoolClient,
  tenantId: string,
  query: { account_id: string; from?: string; to?: string; page_size?: number; cursor?: string },
  today: Date,
) {
  const to = query.to ?? today.toISOString().slice(0, 10);
  const from = query.from ?? `${to.slice(0, 4)}-01-01`;
  const pageSize = query.page_size ?? 100;
  const after = query.cursor ? readCursor(query.cursor) : undefined;
  const account = await client.query<{ id: string; code: string; name: string }>(
    'SELECT id, code, name FROM accounts WHERE tenant_id = $1 AND id = $2',
    [tenantId, query.account_id],
  );
  if (!account.rows[0])
    throw new ApiError('introuvable', 'No such account in this tenant.', { id: query.account_id });
  const opening = after ? null : await balanceBefore(client, tenantId, query.account_id, from);
  const { rows } = await client.query<{
    entry_id: string;
    entry_number: string;
    entry_date: string;
    posted_at: string;
    journal_id: string;
    line_no: number;
    label: string | null;
    debit_cents: string;
    credit_cents: string;
    customer_id: string | null;
    supplier_id: string | null;
    document: { type: string; id: string } | null;
  }>(
    `SELECT l.entry_id, l.entry_number, l.entry_date::text, to_char(l.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS posted_at,
            l.journal_id, l.line_no, l.label, l.debit_cents::text, l.credit_cents::text, l.customer_id, l.supplier_id,
            CASE WHEN j.invoice_id IS NOT NULL THEN json_build_object('type', 'invoice', 'id', j.invoice_id)
                 WHEN j.supplier_invoice_id IS NOT NULL THEN json_build_object('type', 'supplier_invoice', 'id', j.supplier_invoice_id)
                 WHEN j.payment_id IS NOT NULL THEN json_build_object('type', 'payment', 'id', j.payment_id)
                 WHEN j.source_id IS NOT NULL THEN json_build_object('type', j.source_type, 'id', j.source_id) END AS document
       FROM ledger_lines l JOIN journal_entries j ON j.tenant_id = l.tenant_id AND j.id = l.entry_id
      WHERE l.tenant_id = $1 AND l.account_id = $2 AND l.entry_date BETWEEN $3::date AND $4::date
        AND ($5::date IS NULL OR (l.entry_date, l.posted_at, l.entry_id, l.line_no) >
             ($5::date, ($6::text)::timestamp AT TIME ZONE 'UTC', $7::uuid, $8::int))
      ORDER BY l.entry_date, l.posted_at, l.entry_id, l.line_no
      LIMIT $9`,
    [
      tenantId,
      query.account_id,
      from,
      to,
      after?.d ?? null,
      after?.p ?? null,
      after?.e ?? null,
      after?.n ?? null,
      pageSize + 1,
    ],
  );
  let balance = after ? after.b : opening!;
  const page = rows.slice(0, pageSize).map((r) => {
    balance += Number(r.debit_cents) - Number(r.credit_cents);
    return {
      entry_id: r.entry_id,
      entry_number: r.entry_number,
      entry_date: r.entry_date,
      journal_id: r.journal_id,
      line_no: r.line_no,
      label: r.label,
      debit_cents: Number(r.debit_cents),
      credit_cents: Number(r.credit_cents),
      balance_cents: balance,
      customer_id: r.customer_id,
      supplier_id: r.supplier_id,
      document: r.document,
    };
  });
  const last = rows[pageSize - 1];
  const next =
    rows.length > pageSize && last
      ? writeCursor({
          d: last.entry_date,
          p: last.posted_at,
          e: last.entry_id,
          n: last.line_no,
          b: balance,
          o: opening ?? after!.o,
        })
      : null;
  return {
    account: account.rows[0],
    from,
    to,
    opening_cents: opening ?? after!.o,
    data: page,
    next_cursor: next,
  };
}

/** An account's balance (debit − credit) before a day: monthly balances, then that month's lines. */
export async function balanceBefore(
  client: pg.PoolClient,
  tenantId: string,
  accountId: string,
  day: string,
): Promise<number> {
  const { rows } = await client.query<{ balance: string }>(
    `SELECT (coalesce((SELECT sum(debit_cents - credit_cents) FROM account_balances
                        WHERE tenant_id = $1 AND account_id = $2 AND month < date_trunc('month', $3::date)), 0)
           + coalesce((SELECT sum(debit_cents - credit_cents) FROM ledger_lines
                        WHERE tenant_id = $1 AND account_id = $2
                          AND entry_date >= date_trunc('month', $3::date) AND entry_date < $3::date), 0))::text AS balance`,
    [tenantId, accountId, day],
  );
  return Number(rows[0]!.balance);
}

function writeCursor(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function readCursor(cursor: string): Position {
  try {
    const p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    const valid =
      /^\d{4}-\d{2}-\d{2}$/.test(p.d) &&
      /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(p.p) &&
      /^[0-9a-f-]{36}$/i.test(p.e) &&
      Number.isInteger(p.n) &&
      Number.isSafeInteger(p.b) &&
      Number.isSafeInteger(p.o);
    if (valid) return p;
  } catch {
    // refused below
  }
  throw new ApiError('requete_invalide', 'The cursor is not one this report gave.', {
    issues: [
      { location: 'query', path: 'cursor', code: 'invalid_cursor', message: 'unknown cursor' },
    ],
  });
}
