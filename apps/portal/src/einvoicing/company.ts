import { ApiError, COMPANY_FIELDS, type CompanySettings, frenchVatNumber } from '@erp/contract';
import type pg from 'pg';

/** Settings → Company as stored (a tenant that never saved them has every field null). */
export type CompanyRow = CompanySettings;

const SELECT = `SELECT ${COMPANY_FIELDS.map((f) => (f === 'share_capital_cents' ? `${f}::float8 AS ${f}` : f)).join(', ')}
  FROM company_settings WHERE tenant_id = $1`;

export async function readCompany(
  client: pg.PoolClient,
  tenantId: string,
  forUpdate = false,
): Promise<CompanyRow> {
  const { rows } = await client.query<CompanyRow>(forUpdate ? `${SELECT} FOR UPDATE` : SELECT, [
    tenantId,
  ]);
  return rows[0] ?? (Object.fromEntries(COMPANY_FIELDS.map((f) => [f, null])) as CompanyRow);
}

/** Saves the fields sent (null clears one); the body was checked by the contract's schema. */
export async function updateCompany(
  client: pg.PoolClient,
  tenantId: string,
  body: Partial<CompanyRow>,
): Promise<CompanyRow> {
  const fields = COMPANY_FIELDS.filter((f) => f in body);
  if (fields.length) {
    const merged = { ...(await readCompany(client, tenantId, true)), ...body };
    consistent(merged);
    const columns = ['tenant_id', ...fields];
    const values = [tenantId, ...fields.map((f) => body[f] ?? null)];
    await client.query(
      `INSERT INTO company_settings (${columns.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (tenant_id) DO UPDATE SET ${[...fields.map((f) => `${f} = excluded.${f}`), 'updated_at = now()'].join(', ')}`,
      values,
    );
  }
  return readCompany(client, tenantId);
}

/** The identifiers agree once merged with what is stored: a SIRET starts with its SIREN, a French VAT number is its SIREN's. */
function consistent(company: CompanyRow): void {
  const issues: { path: string; message: string }[] = [];
  if (company.siren && company.siret && !company.siret.startsWith(company.siren))
    issues.push({ path: 'siret', message: `a SIRET starts with its SIREN (${company.siren})` });
  if (
    company.siren &&
    company.vat_number?.startsWith('FR') &&
    company.vat_number !== frenchVatNumber(company.siren)
  )
    issues.push({
      path: 'vat_number',
      message: `the French VAT number of SIREN ${company.siren} is ${frenchVatNumber(company.siren)}`,
    });
  if (issues.length)
    throw new ApiError('requete_invalide', `Settings → Company: ${issues[0]!.message}.`, {
      issues: issues.map((i) => ({ location: 'json', code: 'custom', ...i })),
    });
}
