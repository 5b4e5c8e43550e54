import type { Resource } from '@erp/contract';
import type { ActorRef } from '../http/context';
import { type Params, selectList } from './sql';

/**
 * The record as the API shows it, as jsonb, for a CTE that reads the row it locks: the old
 * values a history row compares with must come from the locked row (`FOR UPDATE` re-reads a
 * row a concurrent transaction changed), not from another read of the table, which would see
 * the statement's snapshot and so possibly an older version.
 */
export function recordJsonSql(resource: Resource, alias: string): string {
  return `(SELECT to_jsonb(x) FROM (SELECT ${selectList(resource, alias)}) x)`;
}

/**
 * The CTE that records one version of a record in `record_history`, in the write's own
 * statement: no change without its history row, and a rollback leaves neither. The diff is
 * computed by PostgreSQL (`record_changes`, old JSON against new). It relies on the write
 * statement's CTEs: `o` (the written record: `id`, `version`, `j` its JSON) for create, update
 * and actions; `old` (the locked row: `id`, `version`, `j`) for update, actions and delete;
 * `gone` (the deleted ids) for delete. `$1` is the tenant.
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
  switch (kind) {
    case 'create':
      return `${head}, o.id, o.version, ${who}, record_changes(NULL, o.j::jsonb) FROM o)`;
    case 'delete':
      // A deletion is the record's last version: one after the one deleted.
      return `${head}, old.id, old.version + 1, ${who}, record_changes(old.j, NULL) FROM gone JOIN old ON old.id = gone.id)`;
    default:
      return `${head}, o.id, o.version, ${who}, record_changes(old.j, o.j::jsonb) FROM o JOIN old ON old.id = o.id)`;
  }
}
