import {
  ACCOUNT_SETTINGS,
  ApiError,
  catalogue,
  PARTY_ACCOUNTS,
  type PostingRule,
  type Resource,
} from '@erp/contract';
import type { Params } from '../sql-params';
import type { PostingContext } from './entry-lines';

const SETTINGS_COLUMNS = ACCOUNT_SETTINGS.map((s) => `'${s}', s.${s}_account_id`).join(', ');

/** A rule's context as the database answers it, before it is checked. */
export interface RawPostingContext {
  settings: { currency: string; accounts: PostingContext['settings'] } | null;
  party_account: string | null;
  products: PostingContext['products'];
  source_prices: PostingContext['sourcePrices'] | null;
  taxes: PostingContext['taxes'];
  journal: PostingContext['journal'] | null;
  latest_rate: string | null;
}

/**
 * Everything the postings of `action` read besides the document, as one SQL expression over the
 * document's row `row` (the transition's own `r`: no round trip of its own): a JSON array with,
 * for each of the resource's rules of that action, its context when the rule applies to the
 * row, else null. A context is the settings, the party's account, the lines' products and taxes
 * (with the rate on the document's date), the journal (the document's, else the first active
 * one of the rule's kind), and the latest exchange rate on or before the document's date.
 * `$1` is the tenant.
 */
export function postingContextSql(
  resource: Resource,
  action: string,
  params: Params,
  row: string,
): string | undefined {
  const rules = (resource.postings ?? []).filter((r) => r.action === action);
  if (!rules.length) return undefined;
  const lines = resource.fields.lines ? `${row}.lines` : `'[]'::jsonb`;
  const ids = (key: string) =>
    `ARRAY(SELECT DISTINCT (l->>'${key}')::uuid FROM jsonb_array_elements(${lines}) l WHERE l->>'${key}' IS NOT NULL)`;
  const contexts = rules.map((rule) => {
    const party = `${row}.${rule.party.field}`;
    const date = `${row}.${rule.date}`;
    const journal = resource.fields[rule.journal.field] ? `${row}.${rule.journal.field}` : 'NULL';
    const { table: partyTable, field: partyColumn } = PARTY_ACCOUNTS[rule.party.kind];
    const applies = [
      `${party} IS NOT NULL`,
      ...(rule.when
        ? [`${row}.${rule.when.field}::text = ${params.add(rule.when.equals, 'text')}`]
        : []),
    ].join(' AND ');
    return `CASE WHEN ${applies} THEN json_build_object(
       'settings', (SELECT json_build_object('currency', s.company_currency, 'accounts', json_build_object(${SETTINGS_COLUMNS}))
          FROM accounting_settings s WHERE s.tenant_id = $1::uuid),
       'party_account', (SELECT ${partyColumn} FROM ${partyTable} WHERE tenant_id = $1::uuid AND id = ${party}),
       'products', (SELECT coalesce(json_object_agg(p.id, json_build_object('revenue', p.revenue_account_id, 'expense', p.expense_account_id, 'type', p.product_type)), '{}')
          FROM products p WHERE p.tenant_id = $1::uuid AND p.id = ANY(${ids('product_id')})),
       'source_prices', ${sourcePricesSql(resource, rule, row)},
       'taxes', (SELECT coalesce(json_object_agg(t.id, json_build_object('account', t.account_id, 'rate',
            (SELECT tr.rate::text FROM tax_rates tr
              WHERE tr.tenant_id = $1::uuid AND tr.tax_id = t.id AND tr.valid_from <= ${date}
                AND (tr.valid_until IS NULL OR tr.valid_until >= ${date})
              ORDER BY tr.valid_from DESC LIMIT 1))), '{}')
          FROM taxes t WHERE t.tenant_id = $1::uuid AND t.id = ANY(${ids('tax_id')})),
       'journal', (SELECT json_build_object('id', j.id, 'default_account_id', j.default_account_id) FROM journals j
          WHERE j.tenant_id = $1::uuid AND (j.id = ${journal} OR (${journal} IS NULL AND j.journal_type = ${params.add(rule.journal.kind, 'text')} AND j.status = 'actif'))
          ORDER BY j.code LIMIT 1),
       'latest_rate', (SELECT er.rate::text FROM exchange_rates er JOIN currencies c ON c.tenant_id = er.tenant_id AND c.id = er.currency_id
          WHERE er.tenant_id = $1::uuid AND c.code = ${row}.currency AND er.rate_date <= ${date}
          ORDER BY er.rate_date DESC LIMIT 1)) END`;
  });
  return `json_build_array(${contexts.join(', ')})`;
}

/**
 * The unit prices of the lines of the order a document was made from (SPEC §18), by line id:
 * what its lines of received goods post to `received` (a leg's). Null without such a leg.
 */
function sourcePricesSql(resource: Resource, rule: PostingRule, row: string): string {
  if (!rule.legs.some((leg) => leg.received)) return 'NULL';
  const from = catalogue.find((r) => r.conversions?.some((c) => c.target === resource.name));
  const link = from?.conversions?.find((c) => c.target === resource.name)?.link;
  if (!from || !link) return 'NULL';
  return `(SELECT coalesce(jsonb_object_agg(l->>'id', l->'unit_price_cents'), '{}')
          FROM ${from.table} s, jsonb_array_elements(s.lines) l
         WHERE s.tenant_id = $1::uuid AND s.id = ${row}.${link})`;
}

/**
 * A rule's context checked: settings and a journal must exist, and a document in another
 * currency needs a rate (its own, else the latest on or before its date).
 */
export function postingContext(
  rule: PostingRule,
  doc: Record<string, unknown>,
  raw: RawPostingContext,
): PostingContext {
  if (!raw.settings)
    throw new ApiError('compte_invalide', 'Settings → Accounting are not set for this tenant.', {
      setting: 'accounting_settings',
      reason: 'unset',
    });
  if (!raw.journal)
    throw new ApiError('compte_invalide', `No active ${rule.journal.kind} journal to post in.`, {
      setting: `journal.${rule.journal.kind}`,
      reason: 'unset',
    });
  const companyCurrency = raw.settings.currency;
  const currency = String(doc.currency ?? companyCurrency);
  let rate = '1';
  if (currency !== companyCurrency) {
    rate = (doc.exchange_rate as string | null) ?? raw.latest_rate ?? '';
    if (!rate)
      throw new ApiError(
        'taux_de_change_manquant',
        `No exchange rate of ${currency} on or before ${String(doc[rule.date])}.`,
        { currency, date: String(doc[rule.date]) },
      );
  }
  return {
    companyCurrency,
    settings: raw.settings.accounts,
    partyAccount: raw.party_account,
    products: raw.products,
    sourcePrices: raw.source_prices ?? {},
    taxes: raw.taxes,
    journal: raw.journal,
    rate,
  };
}
