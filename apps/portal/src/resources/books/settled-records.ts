import { catalogue, type Resource, SETTLE_ACTION } from '@erp/contract';
import { activeTraceparent } from '@erp/telemetry';
import type pg from 'pg';
import type { ActorRef } from '../../http/context';
import { historyTextFields } from '../history-write';
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

/** The allocation's sides, as the allocation body or row names them. */
const SIDES = [
  ['payment_id', 'payment'],
  ['invoice_id', 'invoice'],
  ['supplier_invoice_id', 'supplier_invoice'],
  ['credit_note_id', 'credit_note'],
  ['debit_note_id', 'debit_note'],
] as const;
const byName = new Map(catalogue.map((r) => [r.name, r]));

/** The records an allocation names, locked and read before it is written or deleted. */
export async function snapshotSides(
  client: pg.PoolClient,
  tenantId: string,
  allocation: Record<string, unknown>,
): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for (const [column, name] of SIDES) {
    const id = allocation[column];
    if (typeof id !== 'string') continue;
    const resource = byName.get(name)!;
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

/** Records each snapshot's record as it is now, if the allocation changed it. */
export async function recordSettled(
  client: pg.PoolClient,
  tenantId: string,
  snapshots: readonly Snapshot[],
  actor: ActorRef,
): Promise<void> {
  for (const s of snapshots) {
    const params = new Params();
    params.add(tenantId, 'uuid');
    const name = s.resource.name;
    const declared = s.resource.events ?? [];
    const statusChanged = declared.includes('status_changed')
      ? `${name}.status_changed`
      : `${name}.updated`;
    const text = `WITH old AS (SELECT ${params.add(s.id, 'uuid')} AS id, ${params.add(s.status, 'text')} AS status, ${params.add(JSON.stringify(s.was), 'jsonb')} AS was),
      r AS (SELECT t.*, old.status AS previous_status FROM ${s.resource.table} t JOIN old ON old.id = t.id
             WHERE t.tenant_id = $1::uuid AND t.version <> ${params.add(s.version, 'int4')}),
      o AS (SELECT row_to_json(x) AS j, r.id, r.previous_status,
                   r.previous_status IS DISTINCT FROM ${s.resource.lifecycle ? 'r.status' : 'r.previous_status'} AS moved
              FROM r CROSS JOIN LATERAL (SELECT ${selectList(s.resource, 'r')}) x),
      ev AS (INSERT INTO events (tenant_id, type, resource, resource_id, data, trace_context)
             SELECT $1::uuid,
                    CASE WHEN o.moved THEN ${params.add(statusChanged, 'text')} ELSE ${params.add(`${name}.updated`, 'text')} END,
                    ${params.add(name, 'text')}, o.id,
                    CASE WHEN o.moved THEN jsonb_build_object('object', o.j, 'previous_status', o.previous_status, 'action', ${params.add(SETTLE_ACTION, 'text')})
                         ELSE jsonb_build_object('object', o.j) END,
                    ${params.add(activeTraceparent(), 'text')}
               FROM o),
      h AS (INSERT INTO record_history (tenant_id, resource, record_id, version, actor_type, actor_id, action, changes)
            SELECT $1::uuid, ${params.add(name, 'text')}, r.id, r.version, ${params.add(actor.type, 'text')}, ${params.add(actor.id, 'uuid')},
                   ${params.add(SETTLE_ACTION, 'text')},
                   record_changes(old.was, to_jsonb(r) - 'previous_status', ${params.add(historyTextFields(s.resource), 'text[]')})
              FROM r JOIN old ON old.id = r.id)
      SELECT 1`;
    await client.query({ name: preparedName(text), text, values: params.values });
  }
}
