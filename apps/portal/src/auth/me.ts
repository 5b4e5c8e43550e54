import { ApiError, toModules } from '@erp/contract';
import type { Deps } from '../deps';
import type { Caller } from '../http/context';

/** The caller, their memberships and their effective rights in the request's tenant. */
export async function describeCaller(deps: Deps, caller: Caller) {
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('id', '=', caller.userId)
    .executeTakeFirst();
  if (!user) throw new ApiError('jeton_invalide', 'This account no longer exists.');
  const memberships = await deps.db
    .selectFrom('memberships as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .select(['t.id', 't.slug', 't.name', 't.modules', 'm.roles'])
    .where('m.user_id', '=', caller.userId)
    .$if(caller.kind === 'api_key', (q) => q.where('t.id', '=', caller.tenant!.id))
    // A session opened by a tenant's single sign-on shows (and reaches) that tenant only.
    .$if(caller.ssoTenantId !== undefined, (q) => q.where('t.id', '=', caller.ssoTenantId!))
    .orderBy('t.slug')
    .execute();
  const summary = (t: (typeof memberships)[number]) => ({
    id: t.id,
    slug: t.slug,
    name: t.name,
    modules: toModules(t.modules),
  });
  const current = memberships.find((m) => m.id === caller.tenant?.id);
  return {
    user,
    auth: caller.kind,
    tenant: current ? summary(current) : null,
    rights: [...caller.rights].sort(),
    memberships: memberships.map((m) => ({ tenant: summary(m), roles: m.roles })),
  };
}
