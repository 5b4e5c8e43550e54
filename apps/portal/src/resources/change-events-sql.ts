import { changeEventTypes, type RecordChange, type Resource } from '@erp/contract';
import { activeTraceparent } from '@erp/telemetry';
import type { Params } from './sql-params';

/**
 * The CTE recording a change's events (`ev`), in the statement that makes the change: no change
 * without its events, no event without its change. It reads `o` (the record as the API returns
 * it, `o.j`, and its id; for actions `o.previous_status`). The types come from the contract's
 * `changeEventTypes`; the sequence is assigned after commit (see `assign_event_sequences`). The
 * request's trace context goes with the events (null when not tracing): the worker's delivery
 * spans link to it. A record created `through` an action (born past it) also has that action's
 * events, as if it had left its initial state.
 */
export function changeEventsSql(
  resource: Resource,
  change: RecordChange,
  params: Params,
  through?: string,
): string {
  const created = changeEventTypes(resource, change);
  const types = through
    ? [...created, ...changeEventTypes(resource, { kind: 'action', action: through })]
    : created;
  const data =
    change.kind === 'action'
      ? `jsonb_build_object('object', o.j, 'previous_status', o.previous_status, 'action', ${params.add(change.action, 'text')})`
      : through
        ? `CASE WHEN e.n <= ${created.length} THEN jsonb_build_object('object', o.j) ELSE jsonb_build_object('object', o.j, 'previous_status', ${params.add(resource.lifecycle!.initial, 'text')}, 'action', ${params.add(through, 'text')}) END`
        : `jsonb_build_object('object', o.j)`;
  return eventsCte(
    resource,
    params,
    'e.type',
    data,
    `o CROSS JOIN unnest(${params.add(types, 'text[]')}) WITH ORDINALITY AS e(type, n) ORDER BY e.n`,
    'ORDER BY e.n',
  );
}

/**
 * The events of what an allocation changed on a payment or a settled document (SPEC §17): `o`
 * is the record as changed, with `o.previous_status` and `o.moved` (its status changed);
 * `<name>.status_changed` with the action `settle` when it moved (`<name>.updated` for a
 * resource that declares no status event), else `<name>.updated`.
 */
export function settlementEventsSql(resource: Resource, params: Params, action: string): string {
  const updated = params.add(`${resource.name}.updated`, 'text');
  const moved = (resource.events ?? []).includes('status_changed')
    ? params.add(`${resource.name}.status_changed`, 'text')
    : updated;
  return eventsCte(
    resource,
    params,
    `CASE WHEN o.moved THEN ${moved} ELSE ${updated} END`,
    `CASE WHEN o.moved THEN jsonb_build_object('object', o.j, 'previous_status', o.previous_status, 'action', ${params.add(action, 'text')})
          ELSE jsonb_build_object('object', o.j) END`,
    'o',
  );
}

/**
 * `ev`: one event per row of `from`, of type `type` and data `data`, with the request's trace;
 * their ids follow the statement's base in `order`, the order they are numbered in after their
 * `recorded_at`. That one stays the column's default, `clock_timestamp()`: the instant after the
 * statement took its row locks, which puts a record's changes in the order they were made
 * (`statement_timestamp()`, stable, is when the statement arrived, before it waited).
 */
function eventsCte(
  resource: Resource,
  params: Params,
  type: string,
  data: string,
  from: string,
  order = '',
): string {
  return `ev AS (INSERT INTO events (id, tenant_id, type, resource, resource_id, data, trace_context) SELECT erp_uuid_offset(${params.idBase()}, row_number() OVER (${order})), $1::uuid, ${type}, ${params.add(resource.name, 'text')}, o.id, ${data}, ${params.add(activeTraceparent(), 'text')} FROM ${from})`;
}
