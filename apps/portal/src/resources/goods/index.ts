import { ApiError, type Resource } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { countOnSources, countsOnAction } from './counting';
import { withActionReads } from './reads';
import { releaseConsumed, reserveOnAction, reservesOnAction } from './reservation';
import { movesStockOnAction, stockOnAction } from './stock';

export { type ConversionRequest, convert } from './conversion';
export { goodsAllow } from './counting';

/**
 * The goods' part of a lifecycle action (SPEC §18), read from the declarations: fields it
 * requires, what it counts on its source, what it moves in stock, what it reserves. Whether an
 * action has any (so it runs in a transaction of its own).
 */
export function goodsOnAction(resource: Resource, action: string): boolean {
  const spec = resource.lifecycle?.actions[action];
  return Boolean(
    spec?.requires?.length ||
      spec?.shortcut ||
      countsOnAction(resource, action) ||
      movesStockOnAction(resource, action) ||
      reservesOnAction(resource, action),
  );
}

/** Runs after the transition, in its transaction; `doc` is the record as it answered. */
export async function afterGoodsAction(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  action: string,
  doc: Record<string, unknown>,
  previousStatus: string,
  actor: ActorRef,
): Promise<void> {
  requireFields(resource, action, doc);
  await withActionReads(client, () =>
    goodsEffects(client, tenantId, resource, action, doc, previousStatus, actor),
  );
}

async function goodsEffects(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  action: string,
  doc: Record<string, unknown>,
  previousStatus: string,
  actor: ActorRef,
): Promise<void> {
  const consumed = await countOnSources(
    client,
    tenantId,
    resource,
    action,
    doc,
    previousStatus,
    actor,
  );
  await stockOnAction(client, tenantId, resource, action, doc, previousStatus, actor);
  // After the stock moved (its level rows now locked): reservations consumed by the counts.
  for (const reservation of consumed) await releaseConsumed(client, tenantId, reservation);
  if (reservesOnAction(resource, action))
    await reserveOnAction(client, tenantId, resource, action, doc, previousStatus);
}

/** A draft a conversion made may lack what its source could not know (SPEC §18). */
function requireFields(resource: Resource, action: string, doc: Record<string, unknown>): void {
  const missing = (resource.lifecycle?.actions[action]?.requires ?? []).filter(
    (field) => doc[field] === null || doc[field] === undefined || doc[field] === '',
  );
  if (missing.length)
    throw new ApiError(
      'requete_invalide',
      `Set ${missing.join(', ')} (PATCH) before you ${action} it.`,
      {
        issues: missing.map((path) => ({
          location: 'json',
          path,
          code: 'required',
          message: `required before ${action}`,
        })),
      },
    );
}
