import { ACCOUNT_SETTINGS, type AccountSetting, ApiError } from '@erp/contract';
import type pg from 'pg';

interface SettingsRow {
  company_currency: string;
  accounts: Record<AccountSetting, string | null>;
}

const ACCOUNTS_JSON = ACCOUNT_SETTINGS.map((s) => `'${s}', s.${s}_account_id`).join(', ');
const SELECT = `SELECT s.company_currency, json_build_object(${ACCOUNTS_JSON}) AS accounts
  FROM accounting_settings s WHERE s.tenant_id = $1`;

/** Settings → Accounting; a tenant that never saved them has the defaults (EUR, nothing set). */
export async function readAccountingSettings(
  client: pg.PoolClient,
  tenantId: string,
): Promise<SettingsRow> {
  const { rows } = await client.query<SettingsRow>(SELECT, [tenantId]);
  return (
    rows[0] ?? {
      company_currency: 'EUR',
      accounts: Object.fromEntries(
        ACCOUNT_SETTINGS.map((s) => [s, null]),
      ) as SettingsRow['accounts'],
    }
  );
}

/**
 * Saves the fields sent; every account named must take postings (active, not a group), and the
 * receivable and payable accounts be of that sub-type (the parties' ledgers).
 */
export async function updateAccountingSettings(
  client: pg.PoolClient,
  tenantId: string,
  input: { company_currency?: string; accounts?: Partial<Record<AccountSetting, string | null>> },
): Promise<SettingsRow> {
  const accounts = Object.entries(input.accounts ?? {}) as [AccountSetting, string | null][];
  const named = accounts.filter(([, id]) => id !== null);
  if (named.length) {
    const { rows } = await client.query<{
      id: string;
      is_group: boolean;
      status: string;
      sub_type: string | null;
    }>(
      'SELECT id, is_group, status, sub_type FROM accounts WHERE tenant_id = $1 AND id = ANY($2::uuid[])',
      [tenantId, named.map(([, id]) => id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [setting, id] of named) {
      const account = byId.get(id!);
      const reason = !account
        ? 'unknown'
        : account.is_group
          ? 'group'
          : account.status !== 'actif'
            ? 'archived'
            : // The parties' ledgers: a receivable (payable) account of that sub-type.
              (setting === 'receivable' || setting === 'payable') && account.sub_type !== setting
              ? 'not_party_account'
              : null;
      if (reason)
        throw new ApiError(
          'compte_invalide',
          `The ${setting} account takes no posting (${reason}).`,
          {
            setting,
            account_id: id,
            reason,
          },
        );
    }
  }
  const columns = accounts.map(([setting]) => `${setting}_account_id`);
  const values = accounts.map(([, id]) => id);
  const currency = input.company_currency;
  const insertColumns = ['tenant_id', ...(currency ? ['company_currency'] : []), ...columns];
  const insertValues = [tenantId, ...(currency ? [currency] : []), ...values];
  const placeholders = insertValues.map((_, i) => `$${i + 1}`);
  const updates = insertColumns.slice(1).map((c) => `${c} = excluded.${c}`);
  await client.query(
    `INSERT INTO accounting_settings (${insertColumns.join(', ')}) VALUES (${placeholders.join(', ')})
     ON CONFLICT (tenant_id) DO UPDATE SET ${[...updates, 'updated_at = now()'].join(', ')}`,
    insertValues,
  );
  return readAccountingSettings(client, tenantId);
}
