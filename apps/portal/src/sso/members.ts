import { ApiError } from '@erp/contract';
import { sql } from '@erp/db';
import { recordAudit } from '../audit';
import type { Deps } from '../deps';

/** Who the provider vouched for: a verified e-mail, and a name to show. */
export interface VerifiedIdentity {
  email: string;
  name: string;
}

/** The single sign-on settings that decide who may join. */
export interface JoinPolicy {
  tenantId: string;
  allowedDomains: string[];
  defaultRole: string;
}

/**
 * The user a verified identity signs in as. A member signs in whatever their domain (an admin
 * added them); anyone else joins just in time with the default role when their e-mail's
 * domain is allowed (exactly: subdomains are listed one by one), created as a user without a
 * password if new to the platform. Everyone else is `acces_refuse`. Two first sign-ins of the
 * same person at once end with one user and one membership.
 */
export async function signInMember(
  deps: Deps,
  policy: JoinPolicy,
  identity: VerifiedIdentity,
  address: string,
): Promise<{ userId: string; joined: boolean }> {
  const email = identity.email.toLowerCase();
  return deps.db.transaction().execute(async (trx) => {
    const findUser = () =>
      trx
        .selectFrom('users as u')
        .leftJoin('memberships as m', (j) =>
          j.onRef('m.user_id', '=', 'u.id').on('m.tenant_id', '=', policy.tenantId),
        )
        .select(['u.id', 'm.roles'])
        .where(sql<string>`lower(u.email)`, '=', email)
        .executeTakeFirst();
    const existing = await findUser();
    if (existing?.roles) return { userId: existing.id, joined: false };

    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!policy.allowedDomains.includes(domain))
      throw new ApiError(
        'acces_refuse',
        'You are not a member of this tenant, and your e-mail’s domain does not let you join it.',
        { required: 'allowed_domain' },
      );
    await trx
      .insertInto('users')
      .values({ email, name: identity.name, password_hash: null })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .execute();
    const user = (await findUser())!;
    const joined = await trx
      .insertInto('memberships')
      .values({ tenant_id: policy.tenantId, user_id: user.id, roles: [policy.defaultRole] })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
      .returning('roles')
      .executeTakeFirst();
    // A membership change like an admin's, made by the person joining (just in time); an
    // invitation of theirs waiting in this tenant has nothing left to grant.
    if (joined) {
      await trx
        .deleteFrom('invitations')
        .where('tenant_id', '=', policy.tenantId)
        .where('email', '=', email)
        .execute();
      await recordAudit(
        trx,
        { actor: { type: 'user', id: user.id }, address },
        {
          tenantId: policy.tenantId,
          action: 'member.added',
          target: { type: 'user', id: user.id },
          details: { email, roles: joined.roles, invited: false, via: 'sso' },
        },
      );
    }
    return { userId: user.id, joined: Boolean(joined) };
  });
}
