import { ApiError } from '@erp/contract';
import type { Context } from 'hono';

export interface TenantRef {
  id: string;
  slug: string;
  modules: string[];
}

/** Who is calling, resolved once per request by the authentication middleware. */
export interface Caller {
  kind: 'session' | 'api_key';
  userId: string;
  /** The session's refresh family, or the API key's id. */
  credentialId: string;
  /** The tenant named by the request's tenant header, once checked. */
  tenant: TenantRef | null;
  /** Membership roles (for an API key: its holder's). */
  roles: string[];
  /** Effective rights in `tenant` (shared between requests: never changed). */
  rights: ReadonlySet<string>;
  /** A session opened by this tenant's single sign-on, and so limited to it. */
  ssoTenantId?: string;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    caller?: Caller;
    /** Headers every answer to the request carries (`http/answer-headers.ts`). */
    answerHeaders?: Record<string, string>;
  };
};

/** The authenticated caller; route middleware guarantees it on secured routes. */
export function callerOf(c: Context<AppEnv>): Caller {
  const caller = c.get('caller');
  if (!caller) throw new ApiError('non_authentifie', 'Authentication required.');
  return caller;
}

/** The caller's tenant, for routes that require one. */
export function tenantOf(caller: Caller): TenantRef {
  if (!caller.tenant)
    throw new ApiError(
      'tenant_requis',
      'Send the tenant in X-Tenant (sessions) or X-Tenant-ID (API keys).',
    );
  return caller.tenant;
}

/**
 * Who made a change, as history rows and the audit log record it: the user of a session, or the
 * API key itself (not its holder: an integrator's key is told apart from the person who made it).
 * Names are joined when read, so a renamed key or user shows its current name.
 */
export interface ActorRef {
  type: 'user' | 'api_key';
  id: string;
}

export function actorOf(caller: Caller): ActorRef {
  return caller.kind === 'api_key'
    ? { type: 'api_key', id: caller.credentialId }
    : { type: 'user', id: caller.userId };
}
