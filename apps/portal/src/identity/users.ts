import { ApiError } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';
import { recordAudit } from '../audit';
import { enqueueInvitation, hashPassword, isAdmin, revokeUserSessions } from '../auth';
import type { Deps } from '../deps';
import { type AdminActor, adminAuditSource } from './settings-access';

interface UserRow {
  id: string;
  email: string;
  name: string;
  roles: string[];
  created_at: Date;
}

function presentUser(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: row.roles,
    created_at: row.created_at.toISOString(),
  };
}

function members(db: Kysely<Database>, tenantId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.roles', 'm.created_at'])
    .where('m.tenant_id', '=', tenantId);
}

/** The tenant's users with their roles. */
export async function listUsers(deps: Deps, actor: AdminActor) {
  const rows = await members(deps.db, actor.tenant.id).orderBy('u.email').execute();
  return rows.map((r) => presentUser({ ...r, created_at: new Date(r.created_at) }));
}

/**
 * Adds a user: a membership for a known e-mail, else a new account. An account without a
 * password (created here without one, or invited earlier and not yet arrived) is mailed an
 * invitation to set its own, queued in the same transaction (SPEC §13).
 */
export async function createUser(
  deps: Deps,
  actor: AdminActor,
  input: { email: string; name: string; roles: string[]; password?: string },
) {
  guardRoleGrant(actor, input.roles);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return deps.db.transaction().execute(async (trx) => {
    const user =
      (await trx
        .selectFrom('users')
        .select(['id', 'email', 'name', sql<boolean>`password_hash IS NULL`.as('invitee')])
        .where(sql<string>`lower(email)`, '=', input.email.toLowerCase())
        .executeTakeFirst()) ??
      (await trx
        .insertInto('users')
        .values({ email: input.email, name: input.name, password_hash: passwordHash })
        .returning(['id', 'email', 'name', sql<boolean>`password_hash IS NULL`.as('invitee')])
        .executeTakeFirstOrThrow());
    const membership = await trx
      .insertInto('memberships')
      .values({ tenant_id: actor.tenant.id, user_id: user.id, roles: unique(input.roles) })
      .onConflict((oc) => oc.doNothing())
      .returning(['roles', 'created_at'])
      .executeTakeFirst();
    if (!membership)
      throw new ApiError('conflit', 'This user is already a member.', { field: 'email' });
    if (user.invitee) {
      await enqueueInvitation(trx, {
        userId: user.id,
        tenantId: actor.tenant.id,
        invitedBy: actor.userId,
      });
    }
    const target = { type: 'user', id: user.id } as const;
    await recordAudit(
      trx,
      adminAuditSource(actor),
      {
        tenantId: actor.tenant.id,
        action: 'member.added',
        target,
        details: { email: user.email, roles: membership.roles, invited: user.invitee },
      },
      ...(user.invitee
        ? [{ tenantId: actor.tenant.id, action: 'invitation.sent' as const, target }]
        : []),
    );
    return presentUser({
      ...user,
      roles: membership.roles,
      created_at: new Date(membership.created_at),
    });
  });
}

/** Changes roles (always), and name, e-mail or password of users who belong to this tenant alone. */
export async function updateUser(
  deps: Deps,
  actor: AdminActor,
  id: string,
  input: { email?: string; name?: string; roles?: string[]; password?: string },
) {
  if (input.roles) guardRoleGrant(actor, input.roles);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return deps.db.transaction().execute(async (trx) => {
    const current = await lockMember(trx, actor, id);
    if (input.roles) {
      if (isAdmin(current.roles) && !isAdmin(input.roles)) await guardLastAdmin(trx, actor, id);
      await trx
        .updateTable('memberships')
        .set({ roles: unique(input.roles) })
        .where('tenant_id', '=', actor.tenant.id)
        .where('user_id', '=', id)
        .execute();
    }
    if (input.email !== undefined || input.name !== undefined || passwordHash) {
      const elsewhere = await trx
        .selectFrom('memberships')
        .select('tenant_id')
        .where('user_id', '=', id)
        .where('tenant_id', '!=', actor.tenant.id)
        .executeTakeFirst();
      if (elsewhere) {
        throw new ApiError(
          'acces_refuse',
          'This user also belongs to other tenants: only roles can be changed here.',
          {
            required: 'sole_membership',
          },
        );
      }
      await trx
        .updateTable('users')
        .set({
          email: input.email,
          name: input.name,
          password_hash: passwordHash,
          updated_at: deps.now(),
        })
        .where('id', '=', id)
        .execute()
        .catch((error: { code?: string }) => {
          if (error.code === '23505')
            throw new ApiError('conflit', 'This e-mail is already used.', { field: 'email' });
          throw error;
        });
      // A new password ends the user's other sessions.
      if (passwordHash) await revokeUserSessions(trx, id, deps.now());
    }
    const row = await members(trx, actor.tenant.id)
      .where('u.id', '=', id)
      .executeTakeFirstOrThrow();
    // Which fields were sent, never the password itself.
    const changed = (['roles', 'name', 'email', 'password'] as const).filter(
      (field) => input[field] !== undefined,
    );
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'member.updated',
      target: { type: 'user', id },
      details: {
        email: row.email,
        changed,
        ...(input.roles ? { roles: row.roles, previous_roles: current.roles } : {}),
      },
    });
    return presentUser({ ...row, created_at: new Date(row.created_at) });
  });
}

/** Removes a membership; the user's keys in this tenant die with it. */
export async function removeUser(deps: Deps, actor: AdminActor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await lockMember(trx, actor, id);
    if (isAdmin(current.roles)) await guardLastAdmin(trx, actor, id);
    await trx
      .deleteFrom('memberships')
      .where('tenant_id', '=', actor.tenant.id)
      .where('user_id', '=', id)
      .execute();
    await recordAudit(trx, adminAuditSource(actor), {
      tenantId: actor.tenant.id,
      action: 'member.removed',
      target: { type: 'user', id },
      details: { email: current.email, roles: current.roles },
    });
  });
}

async function lockMember(trx: Kysely<Database>, actor: AdminActor, id: string) {
  const row = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.roles', 'u.email'])
    .where('m.tenant_id', '=', actor.tenant.id)
    .where('m.user_id', '=', id)
    .forUpdate('m')
    .executeTakeFirst();
  if (!row) throw new ApiError('introuvable', 'No such user in this tenant.', { id });
  return row;
}

/** A tenant never loses its last admin (it could no longer manage itself). */
async function guardLastAdmin(trx: Kysely<Database>, actor: AdminActor, leavingId: string) {
  // Lock the tenant's admin memberships so two concurrent demotions cannot both pass.
  const admins = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('tenant_id', '=', actor.tenant.id)
    .where(sql<boolean>`roles && ARRAY['admin', 'super-admin']`)
    .forUpdate()
    .execute();
  if (admins.every((a) => a.user_id === leavingId)) {
    throw new ApiError('conflit', 'A tenant keeps at least one admin.', { reason: 'last_admin' });
  }
}

/** Only a super-admin hands out super-admin. */
function guardRoleGrant(actor: AdminActor, roles: string[]) {
  if (roles.includes('super-admin') && !actor.roles.includes('super-admin')) {
    throw new ApiError('acces_refuse', 'Only a super-admin can grant super-admin.', {
      required: 'super-admin',
    });
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
