import type { AuditAction, AuditTargetType } from '@erp/contract';
import type { Database, Kysely } from '@erp/db';
import { clientAddress } from '@erp/http';
import type { Context } from 'hono';
import { type ActorRef, type AppEnv, actorOf, callerOf } from '../http/context';

/** Who acted and from where: what every audit row of a request carries. */
export interface AuditSource {
  actor: ActorRef | null;
  address: string | null;
}

/** One row of the audit log. `details` must never hold a secret, token, password or key. */
export interface AuditEntry {
  tenantId: string | null;
  action: AuditAction;
  target?: { type: AuditTargetType; id: string } | null;
  details?: Record<string, unknown>;
}

/** The caller of a secured request, and the client's address as the portal determines it. */
export function auditSourceOf(c: Context<AppEnv>, trustProxy: boolean): AuditSource {
  return { actor: actorOf(callerOf(c)), address: clientAddress(c, trustProxy) };
}

/**
 * Appends rows to the audit log. Pass the transaction of the operation recorded, so that the
 * row and the operation commit or roll back together.
 */
export async function recordAudit(
  db: Kysely<Database>,
  source: AuditSource,
  ...entries: AuditEntry[]
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        tenant_id: entry.tenantId,
        action: entry.action,
        actor_type: source.actor?.type ?? null,
        actor_id: source.actor?.id ?? null,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        address: source.address,
        details: JSON.stringify(entry.details ?? {}),
      })),
    )
    .execute();
}
