import { ApiError } from '@erp/contract';
import type pg from 'pg';

export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

/** No tab or line break inside a field: the format has no quoting. */
const clean = (sql: string) => `regexp_replace(${sql}, E'[\\t\\r\\n]+', ' ', 'g')`;

/**
 * The FEC of a fiscal year (article A47 A-1 LPF): one line per posted ledger line dated in the
 * year, entries numbered per journal without gaps in posting order, amounts with a decimal
 * comma. Built by PostgreSQL in one statement; a tab or a line break inside a label becomes a
 * space (the format has no quoting).
 */
export async function fecFile(
  client: pg.PoolClient,
  tenant: { id: string; slug: string },
  fiscalYearId: string,
): Promise<{ name: string; text: string }> {
  const tenantId = tenant.id;
  const year = await client.query<{ first_day: string; last_day: string }>(
    `SELECT f.start_date::text AS first_day, f.end_date::text AS last_day
       FROM fiscal_years f WHERE f.tenant_id = $1 AND f.id = $2`,
    [tenantId, fiscalYearId],
  );
  const fy = year.rows[0];
  if (!fy)
    throw new ApiError('introuvable', 'No such fiscal year in this tenant.', { id: fiscalYearId });
  const { rows } = await client.query<{ line: string }>(
    `WITH entries AS (
       SELECT l.entry_id, l.journal_id,
              dense_rank() OVER (PARTITION BY l.journal_id ORDER BY min(l.posted_at), l.entry_id) AS num
         FROM ledger_lines l
        WHERE l.tenant_id = $1 AND l.entry_date BETWEEN $2::date AND $3::date
        GROUP BY l.entry_id, l.journal_id)
     SELECT concat_ws(E'\\t',
              ${clean(`j.code`)}, ${clean(`j.name`)}, e.num::text, to_char(l.entry_date, 'YYYYMMDD'),
              ${clean(`a.code`)}, ${clean(`a.name`)},
              coalesce(coalesce(l.customer_id, l.supplier_id)::text, ''), ${clean(`coalesce(c.name, s.name, '')`)},
              ${clean(`coalesce(je.reference, l.entry_number)`)}, to_char(l.entry_date, 'YYYYMMDD'),
              ${clean(`coalesce(l.label, je.description, '')`)},
              replace(to_char(l.debit_cents / 100.0, 'FM9999999999990.00'), '.', ','),
              replace(to_char(l.credit_cents / 100.0, 'FM9999999999990.00'), '.', ','),
              '', '', to_char(l.posted_at, 'YYYYMMDD'),
              coalesce(replace(to_char(abs(l.amount_currency_cents) / 100.0, 'FM9999999999990.00'), '.', ','), ''),
              coalesce(l.currency, '')) AS line
       FROM ledger_lines l
       JOIN entries e ON e.entry_id = l.entry_id
       JOIN journals j ON j.tenant_id = l.tenant_id AND j.id = l.journal_id
       JOIN accounts a ON a.tenant_id = l.tenant_id AND a.id = l.account_id
       JOIN journal_entries je ON je.tenant_id = l.tenant_id AND je.id = l.entry_id
       LEFT JOIN customers c ON c.tenant_id = l.tenant_id AND c.id = l.customer_id
       LEFT JOIN suppliers s ON s.tenant_id = l.tenant_id AND s.id = l.supplier_id
      WHERE l.tenant_id = $1 AND l.entry_date BETWEEN $2::date AND $3::date
      ORDER BY j.code, e.num, l.line_no`,
    [tenantId, fy.first_day, fy.last_day],
  );
  const text = [FEC_COLUMNS.join('\t'), ...rows.map((r) => r.line)].join('\r\n');
  return { name: `${tenant.slug}FEC${fy.last_day.replace(/-/g, '')}.txt`, text: `${text}\r\n` };
}
