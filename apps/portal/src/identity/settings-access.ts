import { ApiError } from '@erp/contract';
import { isAdmin } from '../auth';
import { type Caller, type TenantRef, tenantOf } from '../http/context';

/** An admin acting on their tenant's settings through a session. */
export interface AdminActor {
  userId: string;
  tenant: TenantRef;
  roles: string[];
}

/** Settings → Users and API keys are for admins, in a user session (keys cannot mint keys). */
export function requireAdminSession(caller: Caller): AdminActor {
  const tenant = tenantOf(caller);
  if (caller.kind !== 'session') {
    throw new ApiError('acces_refuse', 'This route needs a user session.', { required: 'session' });
  }
  if (!isAdmin(caller.roles)) {
    throw new ApiError('acces_refuse', 'Only admins manage users and API keys.', {
      required: 'admin',
    });
  }
  return { userId: caller.userId, tenant, roles: caller.roles };
}
