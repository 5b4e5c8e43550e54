import { ApiError, type RecordChange, type Resource } from '@erp/contract';
import type pg from 'pg';
import type { ActorRef } from '../http/context';
import { changeEventsSql } from './change-events-sql';
import { historyCte } from './history-write';
import { type ColumnValue, columnValues } from './input';
import { mapWriteError } from './pg-errors';
import { selectList } from './read';
import { notFound } from './records-read';
import { Params } from './sql-params';
import { preparedName } from './statement-name';

/**
 * A write's statement, named: its text depends only on the resource, the action and which
 * fields the body sets, so each shape is planned once per connection (SPEC §17's postings run
 * three of them per issue; unnamed, planning was most of their cost).
 */
function named(text: string, params: Params): pg.QueryConfig {
  return { name: preparedName(text), text, values: params.values };
}

export interface WrittenRecord {
  json: string;
  version: number;
}

/**
 * The tail shared by every write: the record as JSON (`o`), and the events of the change
 * recorded with it in the same statement (`changeEventsSql`).
 */
function recordAndEvents(
  resource: Resource,
  change: RecordChange,
  params: Params,
  through?: string,
): string {
  const previousStatus = change.kind === 'action' ? ', r.previous_status' : '';
  const select = `o AS (SELECT row_to_json(x) AS j, r.id, r.version${previousStatus} FROM r CROSS JOIN LATERAL (SELECT ${selectList(resource, 'r')}) x)`;
  return `${select}, ${changeEventsSql(resource, change, params, through)}`;
}

/**
 * Inserts a record (number, totals, `created` event and first history version included).
 * `through`: the record is born past that lifecycle action from its initial state (its status,
 * its stamp, and the action's events after `created`), as the books write the entries they post
 * (SPEC §17): one statement instead of an insert and a transition.
 */
export async function insertRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  body: Record<string, unknown>,
  actor: ActorRef,
  through?: string,
): Promise<WrittenRecord> {
  const params = new Params();
  params.add(tenantId, 'uuid');
  // The id named here and the number from the tenant's counter in the statement itself: no
  // volatile function in a statement Citus routes to the tenant's node (SPEC §19).
  const columns: string[] = ['tenant_id', 'id'];
  const values: string[] = ['$1::uuid', params.idBase()];
  let numbered = '';
  if (resource.numbering) {
    const prefix = params.add(resource.numbering.prefix, 'text');
    numbered = `n AS (INSERT INTO document_sequences AS s (tenant_id, prefix, year, last_value) VALUES ($1::uuid, ${prefix}, extract(year FROM now())::integer, 1) ON CONFLICT (tenant_id, prefix, year) DO UPDATE SET last_value = s.last_value + 1 RETURNING erp_document_number(${prefix}, s.year, s.last_value) AS number), `;
    columns.push('number');
    values.push('(SELECT n.number FROM n)');
  }
  for (const c of columnValues(resource, body)) {
    columns.push(c.column);
    values.push(params.add(c.value, c.cast, c.label));
  }
  if (through) {
    const spec = resource.lifecycle?.actions[through];
    if (!spec?.from.includes(resource.lifecycle!.initial))
      throw new Error(`${resource.name} cannot be born through ${through}`);
    columns.push('status', ...(spec.stamps ? [spec.stamps] : []));
    values.push(params.add(spec.to, 'text'), ...(spec.stamps ? ['now()'] : []));
  }
  const text = `WITH ${numbered}r AS (INSERT INTO ${resource.table} (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING *), ${recordAndEvents(resource, { kind: 'create' }, params, through)}, ${historyCte(resource, params, actor, 'create')} SELECT o.j::text AS j, o.version FROM o`;
  const { rows } = await client
    .query<{ j: string; version: number }>(named(text, params))
    .catch((e) => mapWriteError(e, 'write', params));
  return { json: rows[0]!.j, version: rows[0]!.version };
}

/** Applies a patch, honouring If-Match and the lifecycle's editable states. */
export async function patchRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  body: Record<string, unknown>,
  expectedVersion: number | null,
  actor: ActorRef,
): Promise<WrittenRecord> {
  const params = new Params();
  params.add(tenantId, 'uuid');
  const idParam = params.add(id, 'uuid');
  const sets = columnValues(resource, body).map((c: ColumnValue) => {
    const value = params.add(c.value, c.cast, c.label);
    // A PATCHed line keeps what the server set on the line of the same id (SPEC §18).
    return c.keepsLineFields
      ? `${c.column} = erp_keep_line_fields(${value}, t.${c.column})`
      : `${c.column} = ${value}`;
  });
  sets.push('version = t.version + 1', 'updated_at = now()');
  const guards = [
    expectedVersion === null ? '' : `old.version = ${params.add(expectedVersion, 'int4')}`,
    editableGuard(resource, params),
  ].filter(Boolean);
  const text = `WITH old AS (SELECT t.id, t.version, ${resource.lifecycle ? 't.status' : 'NULL::text AS status'}, t AS was FROM ${resource.table} t WHERE t.tenant_id = $1::uuid AND t.id = ${idParam} FOR UPDATE),
    r AS (UPDATE ${resource.table} t SET ${sets.join(', ')} FROM old WHERE t.id = old.id AND t.tenant_id = $1::uuid${guards.map((g) => ` AND ${g}`).join('')} RETURNING t.*),
    ${recordAndEvents(resource, { kind: 'update' }, params)},
    ${historyCte(resource, params, actor, 'update')}
    SELECT o.j::text AS j, o.version, old.version AS old_version, old.status AS old_status FROM (SELECT 1) one LEFT JOIN old ON true LEFT JOIN o ON true`;
  const { rows } = await client
    .query(named(text, params))
    .catch((e) => mapWriteError(e, 'write', params));
  const row = rows[0] as {
    j: string | null;
    version: number;
    old_version: number | null;
    old_status: string | null;
  };
  if (row.old_version === null) throw notFound(resource, id);
  if (row.j === null) {
    if (expectedVersion !== null && row.old_version !== expectedVersion) {
      throw new ApiError('conflit', 'The record changed since you read it (If-Match).', {
        reason: 'version_mismatch',
        current_etag: `"${row.old_version}"`,
      });
    }
    throw new ApiError(
      'transition_invalide',
      `A ${resource.name.replace(/_/g, ' ')} in status ${row.old_status} cannot be changed.`,
      { from: row.old_status, action: 'update' },
    );
  }
  return { json: row.j, version: row.version };
}

/** Deletes a record in an editable state that nothing refers to. */
export async function removeRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  actor: ActorRef,
): Promise<void> {
  const params = new Params();
  params.add(tenantId, 'uuid');
  const idParam = params.add(id, 'uuid');
  const guard = editableGuard(resource, params);
  const text = `WITH old AS (SELECT t.id, t.version, ${resource.lifecycle ? 't.status' : 'NULL::text AS status'}, t AS was FROM ${resource.table} t WHERE t.tenant_id = $1::uuid AND t.id = ${idParam} FOR UPDATE),
    r AS (DELETE FROM ${resource.table} t USING old WHERE t.id = old.id AND t.tenant_id = $1::uuid${guard ? ` AND ${guard}` : ''} RETURNING t.*),
    ${recordAndEvents(resource, { kind: 'delete' }, params)},
    ${historyCte(resource, params, actor, 'delete')}
    SELECT old.id AS old_id, old.status AS old_status, (SELECT count(*) FROM r)::int AS deleted FROM (SELECT 1) one LEFT JOIN old ON true`;
  const { rows } = await client.query(named(text, params)).catch((e) => mapWriteError(e, 'delete'));
  const row = rows[0] as { old_id: string | null; old_status: string | null; deleted: number };
  if (row.old_id === null) throw notFound(resource, id);
  if (row.deleted === 0) {
    throw new ApiError(
      'transition_invalide',
      `A ${resource.name.replace(/_/g, ' ')} in status ${row.old_status} cannot be deleted.`,
      { from: row.old_status, action: 'delete' },
    );
  }
}

/** Runs a lifecycle action: an allowed transition records its events; a forbidden one changes nothing. */
export async function transitionRecord(
  client: pg.PoolClient,
  resource: Resource,
  tenantId: string,
  id: string,
  action: string,
  actor: ActorRef,
  alongside?: (params: Params) => string | undefined,
): Promise<WrittenRecord & { alongside?: unknown; previousStatus: string }> {
  const spec = resource.lifecycle?.actions[action];
  if (!spec) throw new Error(`no action ${action} on ${resource.name}`);
  const params = new Params();
  params.add(tenantId, 'uuid');
  const idParam = params.add(id, 'uuid');
  // What the caller reads beside the transition, over the changed row `r` (a posting's context).
  const extra = alongside?.(params);
  const text = `WITH old AS (SELECT t.id, t.status, t AS was FROM ${resource.table} t WHERE t.tenant_id = $1::uuid AND t.id = ${idParam} FOR UPDATE),
    r AS (UPDATE ${resource.table} t SET status = ${params.add(spec.to, 'text')},${spec.stamps ? ` ${spec.stamps} = now(),` : ''}${settlementSets(resource, spec)} version = t.version + 1, updated_at = now() FROM old
          WHERE t.id = old.id AND t.tenant_id = $1::uuid AND old.status = ANY(${params.add(spec.from, 'text[]')}) RETURNING t.*, old.status AS previous_status),
    ${recordAndEvents(resource, { kind: 'action', action }, params)},
    ${historyCte(resource, params, actor, 'action', action)}
    SELECT o.j::text AS j, o.version, old.status AS old_status${extra ? `, (SELECT ${extra} FROM r) AS alongside` : ''} FROM (SELECT 1) one LEFT JOIN old ON true LEFT JOIN o ON true`;
  const { rows } = await client.query(named(text, params)).catch((e) => mapWriteError(e, 'write'));
  const row = rows[0] as {
    j: string | null;
    version: number;
    old_status: string | null;
    alongside?: unknown;
  };
  if (row.old_status === null) throw notFound(resource, id);
  if (row.j === null) {
    throw new ApiError(
      'transition_invalide',
      `Cannot ${action} a ${resource.name.replace(/_/g, ' ')} in status ${row.old_status}.`,
      { from: row.old_status, action, allowed_from: spec.from },
    );
  }
  return {
    json: row.j,
    version: row.version,
    alongside: row.alongside,
    previousStatus: row.old_status,
  };
}

/**
 * What the books keep beside a transition (SPEC §17): a settled document owes its total once
 * posted and nothing once cancelled; a posted payment has its whole amount to allocate, a
 * cancelled one nothing (cancelling either is refused while allocations settle it).
 */
function settlementSets(resource: Resource, spec: { to: string; stamps?: string }): string {
  const settlement = resource.lifecycle?.settlement;
  if (settlement && spec.to === settlement.from) return ' amount_due_cents = t.total_cents,';
  if (settlement && spec.to === 'annule') return ' amount_due_cents = 0,';
  if (resource.ledgerRole === 'payment' && spec.stamps)
    return ' unallocated_cents = t.amount_cents - t.allocated_cents,';
  if (resource.ledgerRole === 'payment' && spec.to === 'annule') return ' unallocated_cents = 0,';
  return '';
}

function editableGuard(resource: Resource, params: Params): string {
  return resource.lifecycle
    ? `old.status = ANY(${params.add(resource.editableStates, 'text[]')})`
    : '';
}
