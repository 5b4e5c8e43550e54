import { sql } from '@erp/db';
import { generateSigningSecret } from '@erp/webhooks';
import { type AuditSource, recordAudit } from '../audit';
import type { Deps } from '../deps';
import { subscriptionNotFound } from './subscriptions';

const HOUR_MS = 3600 * 1000;

/**
 * Issues a new signing secret; the current one keeps signing for `overlapHours` (0: dropped
 * now). One statement: the previous slot takes the old value of the current one, so two
 * rotations in a row keep only the two newest secrets.
 */
export async function rotateSecret(
  deps: Deps,
  tenantId: string,
  id: string,
  overlapHours: number,
  source: AuditSource,
) {
  const secret = generateSigningSecret();
  const expiresAt = new Date(deps.now().getTime() + overlapHours * HOUR_MS);
  await deps.db.transaction().execute(async (trx) => {
    const rotated = await trx
      .updateTable('webhook_subscriptions')
      .set({
        secret_sealed: deps.secretBox.seal(secret, id),
        previous_secret_sealed: overlapHours === 0 ? null : sql<Buffer>`secret_sealed`,
        previous_secret_expires_at: expiresAt,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .returning('id')
      .executeTakeFirst();
    if (!rotated) throw subscriptionNotFound(id);
    await recordAudit(trx, source, {
      tenantId,
      action: 'webhook.secret_rotated',
      target: { type: 'webhook_subscription', id },
      details: {
        expire_previous_in_hours: overlapHours,
        previous_secret_expires_at: expiresAt.toISOString(),
      },
    });
  });
  return { secret, previous_secret_expires_at: expiresAt.toISOString() };
}
