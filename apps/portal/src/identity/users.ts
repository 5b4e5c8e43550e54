import { ApiError, jobs } from '@erp/contract';
import { type Database, enqueueJob, type Kysely, sql } from '@erp/db';
import { recordAudit } from '../audit';
import { requireMembershipChange } from '../auth';
import type { Deps } from '../deps';
import { type AdminActor, adminAuditSource } from './settings-access';

/**
 * Settings → Users (SPEC §3): the tenant's memberships and pending invitations. An account
 * belongs to its person: nothing here reads, sets or shows an account's password, and nothing
 * here tells whether an e-mail has an account (inviting never looks at `users`). Who may change
 * which roles is `requireMembershipChange`'s, in one place.
 */

interface Entry {
  id: string;
  email: string;
  name: string;
  roles: string[];
  status: 'active' | 'invited';
  created_at: Date | string;
}

function present(row: Entry) {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

function members(db: Kysely<Database>, tenantId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'u.id',
      'u.email',
      'u.name',
      'm.roles',
      'm.created_at',
      sql<Entry['status']>`'active'`.as('status'),
    ])
    .where('m.tenant_id', '=', tenantId);
}

function invitations(db: Kysely<Database>, tenantId: string) {
  return db
    .selectFrom('invitations')
    .select([
      'id',
      'email',
      'name',
      'roles',
      'created_at',
      sql<Entry['status']>`'invited'`.as('status'),
    ])
    .where('tenant_id', '=', tenantId);
}

/** The tenant's members and pending invitations, by e-mail. */
export async function listUsers(deps: Deps, actor: AdminActor) {
  const rows = await members(deps.db, actor.tenant.id)
    .unionAll(invitations(deps.db, actor.tenant.id))
    .orderBy('email')
    .execute();
  return rows.map(present);
}

/**
 * Invites a person: a pending invitation, mailed by the worker (queued in the same
 * transaction). The same answer whether the e-mail has an account or not; inviting an e-mail
 * already invited refreshes its roles and mails a new link.
 */
export async function inviteUser(
  deps: Deps,
  actor: AdminActor,
  input: { email: string; name: string; roles: string[] },
) {
  const roles = unique(input.roles);
  const email = input.email.trim().toLowerCase();
  return deps.db.transaction().execute(async (trx) => {
    const member = await trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.id')
      .where('m.tenant_id', '=', actor.tenant.id)
      .where(sql<string>`lower(u.email)`, '=', email)
      .executeTakeFirst();
    if (member)
      throw new ApiError('conflit', 'This person is already a member.', { field: 'email' });
    const previous = await trx
      .selectFrom('invitations')
      .select('roles')
      .where('tenant_id', '=', actor.tenant.id)
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    requireMembershipChange(actor.roles, { before: previous?.roles, after: roles });
    const invitation = await trx
      .insertInto('invitations')
      .values({
        tenant_id: actor.tenant.id,
        email,
        name: input.name,
        roles,
        invited_by: actor.userId,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'email']).doUpdateSet({
          name: input.name,
          roles,
          invited_by: actor.userId,
          created_at: sql`now()`,
        }),
      )
      .returning(['id', 'email', 'name', 'roles', 'created_at'])
      .executeTakeFirstOrThrow();
    await enqueueJob(trx, jobs.mailInvitation, { invitation_id: invitation.id });
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'invitation.sent',
      target: { type: 'invitation', id: invitation.id },
      details: { email, roles },
    });
    return present({ ...invitation, status: 'invited' });
  });
}

/** Changes the roles of a member or of a pending invitation. */
export async function updateUserRoles(
  deps: Deps,
  actor: AdminActor,
  id: string,
  input: { roles: string[] },
) {
  const roles = unique(input.roles);
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockEntry(trx, actor, id);
    requireMembershipChange(actor.roles, { before: current.roles, after: roles });
    if (current.status === 'invited') {
      await trx.updateTable('invitations').set({ roles }).where('id', '=', id).execute();
    } else {
      if (current.roles.includes('super-admin') && !roles.includes('super-admin'))
        await guardLastSuperAdmin(trx, actor, id);
      await trx
        .updateTable('memberships')
        .set({ roles })
        .where('tenant_id', '=', actor.tenant.id)
        .where('user_id', '=', id)
        .execute();
    }
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: current.status === 'invited' ? 'invitation.updated' : 'member.updated',
      target: { type: current.status === 'invited' ? 'invitation' : 'user', id },
      details: { email: current.email, changed: ['roles'], roles, previous_roles: current.roles },
    });
    return present({ ...current, roles });
  });
}

/** Ends a membership (its sessions and keys stop working in this tenant), or withdraws an invitation. */
export async function removeUser(deps: Deps, actor: AdminActor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await lockEntry(trx, actor, id);
    requireMembershipChange(actor.roles, { before: current.roles });
    if (current.status === 'invited') {
      await trx.deleteFrom('invitations').where('id', '=', id).execute();
    } else {
      if (current.roles.includes('super-admin')) await guardLastSuperAdmin(trx, actor, id);
      await trx
        .deleteFrom('memberships')
        .where('tenant_id', '=', actor.tenant.id)
        .where('user_id', '=', id)
        .execute();
    }
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: current.status === 'invited' ? 'invitation.withdrawn' : 'member.removed',
      target: { type: current.status === 'invited' ? 'invitation' : 'user', id },
      details: { email: current.email, roles: current.roles },
    });
  });
}

/** The member or invitation `id` of the actor's tenant, locked for the change. */
async function lockEntry(trx: Kysely<Database>, actor: AdminActor, id: string): Promise<Entry> {
  const member = await members(trx, actor.tenant.id)
    .where('m.user_id', '=', id)
    .forUpdate('m')
    .executeTakeFirst();
  if (member) return member;
  const invitation = await invitations(trx, actor.tenant.id)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (invitation) return invitation;
  throw new ApiError('introuvable', 'No such user in this tenant.', { id });
}

/** A tenant always keeps an active super-admin (nobody else could manage its admins). */
async function guardLastSuperAdmin(trx: Kysely<Database>, actor: AdminActor, leavingId: string) {
  // Locks the tenant's super-admin memberships, so two concurrent demotions cannot both pass.
  const superAdmins = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('tenant_id', '=', actor.tenant.id)
    .where(sql<boolean>`'super-admin' = ANY (roles)`)
    .forUpdate()
    .execute();
  if (superAdmins.every((a) => a.user_id === leavingId)) {
    throw new ApiError('conflit', 'A tenant keeps at least one super-admin.', {
      reason: 'last_super_admin',
    });
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
