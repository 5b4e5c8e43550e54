import { toModules } from '@erp/contract';
import type { Deps } from '../deps';

/** The public plans, cheapest first. */
export async function listPublicPlans(deps: Pick<Deps, 'db'>) {
  const rows = await deps.db
    .selectFrom('plans')
    .select([
      'code',
      'name',
      'description',
      'currency',
      'monthly_price_cents',
      'yearly_price_cents',
      'modules',
      'max_users',
    ])
    .where('is_public', '=', true)
    .orderBy('sort_order')
    .orderBy('monthly_price_cents')
    .execute();
  return rows.map((r) => ({ ...r, currency: r.currency.trim(), modules: toModules(r.modules) }));
}
