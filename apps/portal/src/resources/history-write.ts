import { fieldType, type Resource } from '@erp/contract';
import type { ActorRef } from '../http/context';
import type { Params } from './sql-params';

/**
 * The CTE that records one version of a record in `record_history`, in the write's own
 * statement: no change without its history row, and a rollback leaves neither. The diff is
 * computed by PostgreSQL (`record_changes`, the row before against the row after, as
 * `to_jsonb`: cheap to plan, and the same JSON as the API's but for decimals, which it writes
 * as text). It relies on the write statement's CTEs: `r` (the written row) for create, update
 * and actions, the deleted row for delete; `old` (the locked row, whole in `old.was`) for
 * update, actions and delete. `$1` is the tenant.
 *
 * The old values come from the row the `old` CTE locks (`FOR UPDATE` re-reads a row that a
 * concurrent transaction changed meanwhile), never from another read of the table, which
 * would see the statement's snapshot and so possibly an older version.
 */
export function historyCte(
  resource: Resource,
  params: Params,
  actor: ActorRef,
  kind: 'create' | 'update' | 'delete' | 'action',
  action: string = kind,
): string {
  const head = `h AS (INSERT INTO record_history (tenant_id, resource, record_id, version, actor_type, actor_id, action, changes) SELECT $1::uuid, ${params.add(resource.name, 'text')}`;
  const who = `${params.add(actor.type, 'text')}, ${params.add(actor.id, 'uuid')}, ${params.add(action, 'text')}`;
  const asText = params.add(historyTextFields(resource), 'text[]');
  switch (kind) {
    case 'create':
      return `${head}, r.id, r.version, ${who}, record_changes(NULL, to_jsonb(r), ${asText}) FROM r)`;
    case 'update':
      return `${head}, r.id, r.version, ${who}, record_changes(to_jsonb(old.was), to_jsonb(r), ${asText}) FROM r JOIN old ON old.id = r.id)`;
    case 'action':
      // An action's `r` also returns the status it left (for its events).
      return `${head}, r.id, r.version, ${who}, record_changes(to_jsonb(old.was), to_jsonb(r) - 'previous_status', ${asText}) FROM r JOIN old ON old.id = r.id)`;
    case 'delete':
      // A deletion is the record's last version: one after the one deleted.
      return `${head}, old.id, old.version + 1, ${who}, record_changes(to_jsonb(old.was), NULL, ${asText}) FROM r JOIN old ON old.id = r.id)`;
  }
}

const textFieldsOf = new WeakMap<Resource, string[]>();

/** The fields the API writes as JSON strings although stored as numbers (decimals). */
function historyTextFields(resource: Resource): string[] {
  let names = textFieldsOf.get(resource);
  if (!names) {
    names = Object.entries(resource.allFields)
      .filter(([, field]) => fieldType(field).selectAsText)
      .map(([name]) => name);
    textFieldsOf.set(resource, names);
  }
  return names;
}
