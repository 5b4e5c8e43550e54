import { ApiError } from '@erp/contract';
import type { AuditSource } from '../audit';
import { isAdmin } from '../auth';
import { type Caller, type TenantRef, tenantOf } from '../http/context';

/** An admin acting on their tenant's settings through a session. */
export interface AdminActor {
  userId: string;
  tenant: TenantRef;
  roles: string[];
  /** The client's address, for the audit log. */
  address: string;
}

/**
 * Settings → Users, API keys, single sign-on and the audit log are for admins, in a user session
 * (keys cannot mint keys).
 */
export function requireAdminSession(caller: Caller, address: string): AdminActor {
  const tenant = tenantOf(caller);
  if (caller.kind !== 'session') {
    throw new ApiError('acces_refuse', 'This route needs a user session.', { required: 'session' });
  }
  if (!isAdmin(caller.roles)) {
    throw new ApiError('acces_refuse', 'Only admins manage users and API keys.', {
      required: 'admin',
    });
  }
  return { userId: caller.userId, tenant, roles: caller.roles, address };
}

/** Who the audit log names for an admin's act: the user of the session, and their address. */
export function adminAuditSource(actor: AdminActor): AuditSource {
  return { actor: { type: 'user', id: actor.userId }, address: actor.address };
}
