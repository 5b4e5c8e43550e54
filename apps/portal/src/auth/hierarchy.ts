import { ApiError } from '@erp/contract';
import { isAdmin } from './rights';

/**
 * The role hierarchy (SPEC §3): super-admin > admin > module roles. This is the one place that
 * says who may change what; every user, role, single sign-on and portal-access route asks it.
 */

/** Whether a membership's roles hold `super-admin`. */
export function isSuperAdmin(roles: readonly string[]): boolean {
  return roles.includes('super-admin');
}

/** Throws `acces_refuse` (`params.required: super-admin`) unless the actor is a super-admin. */
export function requireSuperAdmin(actorRoles: readonly string[], what: string): void {
  if (!isSuperAdmin(actorRoles)) {
    throw new ApiError('acces_refuse', `Only a super-admin can ${what}.`, {
      required: 'super-admin',
    });
  }
}

/**
 * May an actor holding `actorRoles` turn a membership (or an invitation) holding `before` into
 * one holding `after`? Admins manage module roles only; anything that grants, holds or takes
 * away `admin` or `super-admin` is a super-admin's. `before` absent: a new one; `after` absent:
 * a removal.
 */
export function requireMembershipChange(
  actorRoles: readonly string[],
  change: { before?: readonly string[]; after?: readonly string[] },
): void {
  if (!isAdmin(actorRoles)) {
    throw new ApiError('acces_refuse', 'Only admins manage users.', { required: 'admin' });
  }
  const touchesAdmins = [change.before, change.after].some((roles) => roles && isAdmin(roles));
  if (touchesAdmins) requireSuperAdmin(actorRoles, 'grant, change or remove admin roles');
}
