import { ApiError, hashPasswordLinkToken } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';
import { recordAudit } from '../audit';
import type { Deps } from '../deps';
import { hashPassword } from './passwords';

/**
 * Accepting an invitation (SPEC §3): only the holder of the mailed link can, and the
 * membership exists from then on. An e-mail whose account has a password accepts by signing
 * in to it (`joinInvitation`); otherwise the person chooses the first password
 * (`acceptInvitation`), which proves the inbox as a reset link would. Either way the link works
 * once: the invitation row is consumed in the transaction that makes the membership.
 */

interface LiveInvitation {
  id: string;
  tenant_id: string;
  email: string;
  name: string;
  roles: string[];
  token_expires_at: Date | string;
  tenant_slug: string;
  tenant_name: string;
  account_id: string | null;
  has_password: boolean;
}

function findInvitation(db: Kysely<Database>, token: string, lock: boolean) {
  const query = db
    .selectFrom('invitations as i')
    .innerJoin('tenants as t', 't.id', 'i.tenant_id')
    .leftJoin('users as u', (j) => j.on(sql`lower(u.email)`, '=', sql.ref('i.email')))
    .select([
      'i.id',
      'i.tenant_id',
      'i.email',
      'i.name',
      'i.roles',
      'i.token_expires_at',
      't.slug as tenant_slug',
      't.name as tenant_name',
      'u.id as account_id',
      sql<boolean>`coalesce(u.password_hash IS NOT NULL, false)`.as('has_password'),
    ])
    .where('i.token_hash', '=', hashPasswordLinkToken(token));
  return (lock ? query.forUpdate('i') : query).executeTakeFirst() as Promise<
    LiveInvitation | undefined
  >;
}

function requireLive(invitation: LiveInvitation | undefined, now: Date): LiveInvitation {
  // A used invitation no longer exists, so "used" and "unknown" are one answer here.
  if (!invitation)
    throw new ApiError('lien_invalide', 'This link is not valid: ask for a new invitation.', {
      reason: 'unknown',
    });
  if (new Date(invitation.token_expires_at!) <= now)
    throw new ApiError('lien_invalide', 'This link has expired: ask for a new invitation.', {
      reason: 'expired',
    });
  return invitation;
}

/** What the invitation page shows: the tenant, the e-mail, and how to accept. */
export async function lookupInvitation(deps: Deps, token: string) {
  const invitation = requireLive(await findInvitation(deps.db, token, false), deps.now());
  return {
    email: invitation.email,
    name: invitation.name,
    tenant: { slug: invitation.tenant_slug, name: invitation.tenant_name },
    account: invitation.has_password ? ('existing' as const) : ('new' as const),
    expires_at: new Date(invitation.token_expires_at).toISOString(),
  };
}

/** Accepts for an e-mail without a password: its first password, then the membership. */
export async function acceptInvitation(
  deps: Deps,
  input: { token: string; password: string; name?: string },
  clientAddress: string,
) {
  // argon2 only for a live link: made-up tokens cost no hashing.
  const seen = requireLive(await findInvitation(deps.db, input.token, false), deps.now());
  if (seen.has_password) throw accountExists();
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction().execute(async (trx) => {
    const invitation = requireLive(await findInvitation(trx, input.token, true), deps.now());
    if (invitation.has_password) throw accountExists();
    const name = input.name ?? invitation.name;
    const accountId = invitation.account_id
      ? (
          await trx
            .updateTable('users')
            .set({ password_hash: passwordHash, name, updated_at: deps.now() })
            .where('id', '=', invitation.account_id)
            .where('password_hash', 'is', null)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      : (
          await trx
            .insertInto('users')
            .values({ email: invitation.email, name, password_hash: passwordHash })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
    return join(trx, invitation, accountId, 'password', clientAddress);
  });
}

/** Accepts as the signed-in account, which must be the invited e-mail's. */
export async function joinInvitation(
  deps: Deps,
  userId: string,
  token: string,
  clientAddress: string,
) {
  return deps.db.transaction().execute(async (trx) => {
    const invitation = requireLive(await findInvitation(trx, token, true), deps.now());
    if (invitation.account_id !== userId) {
      throw new ApiError(
        'acces_refuse',
        'This invitation was sent to another e-mail: sign in as that account to accept it.',
        { required: 'invitee' },
      );
    }
    return join(trx, invitation, userId, 'sign_in', clientAddress);
  });
}

async function join(
  trx: Kysely<Database>,
  invitation: LiveInvitation,
  userId: string,
  how: 'password' | 'sign_in',
  clientAddress: string,
) {
  await trx.deleteFrom('invitations').where('id', '=', invitation.id).execute();
  await trx
    .insertInto('memberships')
    .values({ tenant_id: invitation.tenant_id, user_id: userId, roles: invitation.roles })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doNothing())
    .execute();
  const target = { type: 'user', id: userId } as const;
  const details = { email: invitation.email, roles: invitation.roles, how };
  await recordAudit(
    trx,
    { actor: { type: 'user', id: userId }, address: clientAddress },
    { tenantId: invitation.tenant_id, action: 'invitation.accepted', target, details },
    { tenantId: invitation.tenant_id, action: 'member.added', target, details },
  );
  return { email: invitation.email, tenant: invitation.tenant_slug };
}

function accountExists(): ApiError {
  return new ApiError(
    'conflit',
    'This e-mail already has an account: sign in to it to accept the invitation.',
    { reason: 'account_exists' },
  );
}
