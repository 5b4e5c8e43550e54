import { ACCOUNT_SETTINGS, ApiError, type PostingRule, type PricedLine } from '@erp/contract';
import type pg from 'pg';
import type { PostingContext } from './entry-lines';

const SETTINGS_COLUMNS = ACCOUNT_SETTINGS.map((s) => `'${s}', s.${s}_account_id`).join(', ');

/**
 * Everything a posting reads besides the document, in one round trip: the settings, the
 * party's account, the lines' products and taxes (with the rate on the date), the journal
 * (the document's, else the first active one of the rule's kind), and the exchange rate (the
 * document's, else the latest on or before its date).
 */
export async function loadPostingContext(
  client: pg.PoolClient,
  tenantId: string,
  rule: PostingRule,
  doc: Record<string, unknown>,
): Promise<PostingContext> {
  const lines = (doc.lines as PricedLine[] | undefined) ?? [];
  const products = [...new Set(lines.map((l) => l.product_id).filter(Boolean))] as string[];
  const taxes = [...new Set(lines.map((l) => l.tax_id).filter(Boolean))] as string[];
  const date = String(doc[rule.date]);
  const party = doc[rule.party.field] ?? null;
  const partyTable = rule.party.kind === 'customer' ? 'customers' : 'suppliers';
  const partyColumn =
    rule.party.kind === 'customer' ? 'receivable_account_id' : 'payable_account_id';
  const { rows } = await client.query(
    `SELECT
       (SELECT json_build_object('currency', s.company_currency, 'accounts', json_build_object(${SETTINGS_COLUMNS}))
          FROM accounting_settings s WHERE s.tenant_id = $1) AS settings,
       (SELECT ${partyColumn} FROM ${partyTable} WHERE tenant_id = $1 AND id = $2) AS party_account,
       (SELECT coalesce(json_object_agg(id, json_build_object('revenue', revenue_account_id, 'expense', expense_account_id)), '{}')
          FROM products WHERE tenant_id = $1 AND id = ANY($3::uuid[])) AS products,
       (SELECT coalesce(json_object_agg(t.id, json_build_object('account', t.account_id, 'rate',
            (SELECT r.rate::text FROM tax_rates r
              WHERE r.tenant_id = $1 AND r.tax_id = t.id AND r.valid_from <= $5::date
                AND (r.valid_until IS NULL OR r.valid_until >= $5::date)
              ORDER BY r.valid_from DESC LIMIT 1))), '{}')
          FROM taxes t WHERE t.tenant_id = $1 AND t.id = ANY($4::uuid[])) AS taxes,
       (SELECT json_build_object('id', j.id, 'default_account_id', j.default_account_id) FROM journals j
         WHERE j.tenant_id = $1 AND (j.id = $6::uuid OR ($6::uuid IS NULL AND j.journal_type = $7 AND j.status = 'actif'))
         ORDER BY j.code LIMIT 1) AS journal,
       (SELECT r.rate::text FROM exchange_rates r JOIN currencies c ON c.tenant_id = r.tenant_id AND c.id = r.currency_id
         WHERE r.tenant_id = $1 AND c.code = $8 AND r.rate_date <= $5::date
         ORDER BY r.rate_date DESC LIMIT 1) AS latest_rate`,
    [
      tenantId,
      party,
      products,
      taxes,
      date,
      doc[rule.journal.field] ?? null,
      rule.journal.kind,
      String(doc.currency ?? ''),
    ],
  );
  const row = rows[0] as {
    settings: { currency: string; accounts: PostingContext['settings'] } | null;
    party_account: string | null;
    products: PostingContext['products'];
    taxes: PostingContext['taxes'];
    journal: PostingContext['journal'] | null;
    latest_rate: string | null;
  };
  if (!row.settings)
    throw new ApiError('compte_invalide', 'Settings → Accounting are not set for this tenant.', {
      setting: 'accounting_settings',
      reason: 'unset',
    });
  if (!row.journal)
    throw new ApiError('compte_invalide', `No active ${rule.journal.kind} journal to post in.`, {
      setting: `journal.${rule.journal.kind}`,
      reason: 'unset',
    });
  const companyCurrency = row.settings.currency;
  const currency = String(doc.currency ?? companyCurrency);
  let rate = '1';
  if (currency !== companyCurrency) {
    rate = (doc.exchange_rate as string | null) ?? row.latest_rate ?? '';
    if (!rate)
      throw new ApiError(
        'taux_de_change_manquant',
        `No exchange rate of ${currency} on or before ${date}.`,
        { currency, date },
      );
  }
  return {
    companyCurrency,
    settings: row.settings.accounts,
    partyAccount: row.party_account,
    products: row.products,
    taxes: row.taxes,
    journal: row.journal,
    rate,
  };
}
