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
  return `ev AS (INSERT INTO events (tenant_id, type, resource, resource_id, data, trace_context) SELECT $1::uuid, e.type, ${params.add(resource.name, 'text')}, o.id, ${data}, ${params.add(activeTraceparent(), 'text')} FROM o CROSS JOIN unnest(${params.add(types, 'text[]')}) WITH ORDINALITY AS e(type, n) ORDER BY e.n)`;
}
