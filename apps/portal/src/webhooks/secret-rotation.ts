import { sql } from '@erp/db';
import { generateSigningSecret } from '@erp/webhooks';
import type { Deps } from '../deps';
import { subscriptionNotFound } from './subscriptions';

const HOUR_MS = 3600 * 1000;

/**
 * Issues a new signing secret; the current one keeps signing for `overlapHours` (0: dropped
 * now). One statement: the previous slot takes the old value of the current one, so two
 * rotations in a row keep only the two newest secrets.
 */
export async function rotateSecret(deps: Deps, tenantId: string, id: string, overlapHours: number) {
  const secret = generateSigningSecret();
  const expiresAt = new Date(deps.now().getTime() + overlapHours * HOUR_MS);
  const rotated = await deps.db
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
  return { secret, previous_secret_expires_at: expiresAt.toISOString() };
}
