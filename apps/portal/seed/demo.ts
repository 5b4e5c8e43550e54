import { type Database, type Kysely, sql } from '@erp/db';
import { hashPassword } from '../src/auth';
import { PLANS, seedPlans } from './plans';

export const DEMO_ADMIN_EMAIL = 'admin@demo.test';

/** Plans, the `demo` tenant on every module, and its super-admin (idempotent); their ids. */
export async function seedDemo(
  db: Kysely<Database>,
  adminPassword: string,
): Promise<{ tenantId: string; adminId: string }> {
  await seedPlans(db);
  const enterprise = PLANS.find((p) => p.code === 'enterprise')!;
  const passwordHash = await hashPassword(adminPassword);
  return db.transaction().execute(async (trx) => {
    const tenant = await trx
      .insertInto('tenants')
      .values({
        slug: 'demo',
        name: 'Demo SARL',
        plan_code: enterprise.code,
        modules: [...enterprise.modules],
      })
      .onConflict((oc) =>
        oc
          .column('slug')
          .doUpdateSet({ plan_code: enterprise.code, modules: [...enterprise.modules] }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    const existing = await trx
      .selectFrom('users')
      .select('id')
      .where(sql<string>`lower(email)`, '=', DEMO_ADMIN_EMAIL)
      .executeTakeFirst();
    const user = existing
      ? await trx
          .updateTable('users')
          .set({ password_hash: passwordHash })
          .where('id', '=', existing.id)
          .returning('id')
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('users')
          .values({ email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', password_hash: passwordHash })
          .returning('id')
          .executeTakeFirstOrThrow();
    await trx
      .insertInto('memberships')
      .values({ tenant_id: tenant.id, user_id: user.id, roles: ['super-admin'] })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'user_id']).doUpdateSet({ roles: ['super-admin'] }),
      )
      .execute();
    return { tenantId: tenant.id, adminId: user.id };
  });
}
