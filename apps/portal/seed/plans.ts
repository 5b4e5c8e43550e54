import { MODULES } from '@erp/contract';
import type { Database, Kysely } from '@erp/db';

/** The product's plans (prices in cents, yearly = ten months). */
export const PLANS = [
  {
    code: 'starter',
    name: 'Starter',
    description: 'Sell and follow up leads.',
    modules: ['sales', 'crm'],
    monthly: 1900,
    max_users: 5,
  },
  {
    code: 'business',
    name: 'Business',
    description: 'Sales, purchasing, stock, accounting and customer support.',
    modules: ['sales', 'purchasing', 'inventory', 'accounting', 'crm', 'support'],
    monthly: 4900,
    max_users: 25,
  },
  {
    code: 'enterprise',
    name: 'Enterprise',
    description: 'Every module.',
    modules: MODULES,
    monthly: 14900,
    max_users: null,
  },
] as const;

/** Inserts or updates the plans (idempotent). */
export async function seedPlans(db: Kysely<Database>): Promise<void> {
  for (const [index, plan] of PLANS.entries()) {
    const values = {
      code: plan.code,
      name: plan.name,
      description: plan.description,
      currency: 'EUR',
      monthly_price_cents: plan.monthly,
      yearly_price_cents: plan.monthly * 10,
      modules: [...plan.modules],
      max_users: plan.max_users,
      sort_order: index,
    };
    await db
      .insertInto('plans')
      .values(values)
      .onConflict((oc) => oc.column('code').doUpdateSet(values))
      .execute();
  }
}
