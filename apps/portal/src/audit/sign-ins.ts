import { type AuditAction, isUuid } from '@erp/contract';
import { type Database, type Kysely, sql } from '@erp/db';

/** A sign-in as the audit log records it. */
export interface SignIn {
  succeeded: boolean;
  method: 'password' | 'sso';
  /** As typed (lower-cased) or as the provider asserted it; null before the provider said. */
  email: string | null;
  /** The account, when the e-mail is one and (for a password) the password was right or wrong. */
  userId?: string;
  /** The tenant the sign-in named (slug or id), if any. */
  tenant?: string;
  /** The error code answered, for a failure. */
  reason?: string;
  address: string;
  details?: Record<string, unknown>;
}

/**
 * Records a sign-in in the audit logs it concerns, in one statement whatever the case, so that
 * writing it reveals nothing to the caller (same work, same answer):
 * - a sign-in naming a tenant: that tenant's log, the person as actor only if a member of it
 *   (otherwise a tenant admin would learn that the e-mail has an account elsewhere);
 * - a sign-in naming none (a password login opens every tenant of the account): the log of
 *   each tenant the account belongs to;
 * - none of these (an e-mail no account uses, a tenant that does not exist, an account with no
 *   membership): one platform row (no tenant), which no tenant's admin sees.
 */
export async function recordSignIn(db: Kysely<Database>, signIn: SignIn): Promise<void> {
  const action: AuditAction = signIn.succeeded ? 'login.succeeded' : 'login.failed';
  const tenant = signIn.tenant?.toLowerCase();
  const tenantId = tenant !== undefined && isUuid(tenant) ? tenant : null;
  const slug = tenant !== undefined && tenantId === null ? tenant : null;
  const details = {
    method: signIn.method,
    email: signIn.email,
    ...(signIn.reason === undefined ? {} : { reason: signIn.reason }),
    ...signIn.details,
  };
  const user = signIn.userId ?? null;
  await sql`
    WITH named AS (
      SELECT t.id FROM tenants t
      WHERE t.id = ${tenantId}::uuid OR t.slug = ${slug}::text
    ),
    targets AS (
      SELECT n.id AS tenant_id,
        EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = n.id AND m.user_id = ${user}::uuid) AS member
      FROM named n
      UNION ALL
      SELECT m.tenant_id, true FROM memberships m
      WHERE ${tenant ?? null}::text IS NULL AND m.user_id = ${user}::uuid
    ),
    rows AS (
      SELECT tenant_id, member FROM targets
      UNION ALL
      SELECT NULL, false WHERE NOT EXISTS (SELECT 1 FROM targets)
    )
    INSERT INTO audit_log (tenant_id, action, actor_type, actor_id, target_type, target_id, address, details)
    SELECT tenant_id, ${action}::text,
      CASE WHEN member THEN 'user' END, CASE WHEN member THEN ${user}::uuid END,
      CASE WHEN member THEN 'user' END, CASE WHEN member THEN ${user}::uuid END,
      ${signIn.address}::text, ${JSON.stringify(details)}::jsonb
    FROM rows
  `.execute(db);
}
