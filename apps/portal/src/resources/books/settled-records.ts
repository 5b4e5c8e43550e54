import { catalogue, type Resource, SETTLE_ACTION } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { settlementEventsSql } from '../change-events-sql';
import { historyCte } from '../history-write';
import { selectList } from '../read';
import { Params } from '../sql-params';
import { preparedName } from '../statement-name';

/**
 * What an allocation changes besides itself (SPEC §17): the payment's `allocated_cents`, each
 * document's `amount_due_cents` and derived status. The database's allocation trigger makes
 * those changes (whatever path writes the allocation); the engine records them like any other
 * change, so no change goes without its history version and its event: each record's new
 * version against the one read before, and `<name>.status_changed` (action `settle`) when its
 * status moved, else `<name>.updated`.
 */
export interface Snapshot {
  resource: Resource;
  id: string;
  version: number;
  status: string | null;
  was: unknown;
}

const allocations = catalogue.find((r) => r.ledgerRole === 'allocation')!;
const byName = new Map(catalogue.map((r) => [r.name, r]));

/**
 * The allocation's sides: its references to a payment or to a settled document, in declaration
 * order (payment first, as the allocation trigger locks them, so the two never wait on each
 * other in opposite orders).
 */
const SIDES = Object.entries(allocations.fields).flatMap(([column, field]) => {
  const target = field.type === 'reference' ? byName.get(field.resource) : undefined;
  return target && (target.ledgerRole === 'payment' || target.lifecycle?.settlement)
    ? [{ column, resource: target }]
    : [];
});

/** The records an allocation names, locked and read before it is written or deleted. */
export async function snapshotSides(
  client: pg.PoolClient,
  tenantId: string,
  allocation: Record<string, unknown>,
): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for (const { column, resource } of SIDES) {
    const id = allocation[column];
    if (typeof id !== 'string') continue;
    const { rows } = await client.query<{ version: number; status: string | null; was: unknown }>(
      `SELECT t.version, ${resource.lifecycle ? 't.status' : 'NULL::text AS status'}, to_jsonb(t) AS was
         FROM ${resource.table} t WHERE t.tenant_id = $1 AND t.id = $2 FOR NO KEY UPDATE`,
      [tenantId, id],
    );
    if (rows[0]) out.push({ resource, id, ...rows[0] });
  }
  return out;
}

/** The allocation row's sides (before deleting it). */
export async function allocationSides(
  client: pg.PoolClient,
  tenantId: string,
  resource: Resource,
  id: string,
): Promise<Record<string, unknown>> {
  const { rows } = await client.query(
    `SELECT to_jsonb(a) AS row FROM ${resource.table} a WHERE a.tenant_id = $1 AND a.id = $2`,
    [tenantId, id],
  );
  return (rows[0]?.row as Record<string, unknown> | undefined) ?? {};
}

/**
 * Records each snapshot's record as it is now, if the allocation changed it: its history
 * version (the engine's own `historyCte`, action `settle`) and its event, in one statement.
 * The goods use it too (SPEC §18): what a target counted on its source, action `follow`.
 */
export async function recordSettled(
  client: pg.PoolClient,
  tenantId: string,
  snapshots: readonly Snapshot[],
  actor: ActorRef,
  action: string = SETTLE_ACTION,
): Promise<void> {
  for (const s of snapshots) {
    const params = new Params();
    params.add(tenantId, 'uuid');
    const status = s.resource.lifecycle ? 'r.status' : 'r.previous_status';
    const text = `WITH old AS (SELECT ${params.add(s.id, 'uuid')} AS id, ${params.add(s.status, 'text')} AS status, ${params.add(JSON.stringify(s.was), 'jsonb')} AS was),
      r AS (SELECT t.*, old.status AS previous_status FROM ${s.resource.table} t JOIN old ON old.id = t.id
             WHERE t.tenant_id = $1::uuid AND t.version <> ${params.add(s.version, 'int4')}),
      o AS (SELECT row_to_json(x) AS j, r.id, r.previous_status, r.previous_status IS DISTINCT FROM ${status} AS moved
              FROM r CROSS JOIN LATERAL (SELECT ${selectList(s.resource, 'r')}) x),
      ${settlementEventsSql(s.resource, params, action)},
      ${historyCte(s.resource, params, actor, 'action', action)}
      SELECT 1`;
    await client.query({ name: preparedName(text), text, values: params.values });
  }
}
