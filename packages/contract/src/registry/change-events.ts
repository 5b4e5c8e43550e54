import type { Resource } from './define';

/**
 * Every change of a record, as the engine makes it: what the feed (SPEC §12) records an event
 * for. A lifecycle action is named.
 */
export type RecordChange =
  | { kind: 'create' }
  | { kind: 'update' }
  | { kind: 'delete' }
  | { kind: 'action'; action: string };

/** The generic event suffixes of changes other than actions (`<resource>.created`, …). */
export const GENERIC_CHANGES: ReadonlySet<string> = new Set([
  'created',
  'updated',
  'deleted',
  'status_changed',
]);

/**
 * The event types of a resource's changes, as literals: its catalogue names (`E`), plus
 * `created`, `updated`, `deleted`, plus one per action (`A`) unless the resource's catalogue
 * names a `status_changed`, which then stands for every action.
 */
export type FeedEventTypes<N extends string, E extends string, A extends string> =
  | `${N}.${E}`
  | `${N}.created`
  | `${N}.updated`
  | `${N}.deleted`
  | ('status_changed' extends E ? never : `${N}.${A}`);

/**
 * The event types one change records, in the order they are recorded (one definition, read by
 * the portal's writes and by the contract's feed schemas):
 * - create → `<r>.created` (SPEC §7's name where the catalogue has it: the same string);
 * - update → `<r>.updated`; delete → `<r>.deleted`;
 * - an action → `<r>.status_changed` when the catalogue gives the resource one, otherwise
 *   `<r>.<action>`; plus the catalogue's approval step the action `emits`, if any.
 * So every change has exactly one event describing it, and the catalogue's approval events
 * keep coming beside `status_changed` as SPEC §7 has them.
 */
export function changeEventTypes(resource: Resource, change: RecordChange): string[] {
  const name = resource.name;
  switch (change.kind) {
    case 'create':
      return [`${name}.created`];
    case 'update':
      return [`${name}.updated`];
    case 'delete':
      return [`${name}.deleted`];
    case 'action': {
      const spec = resource.lifecycle?.actions[change.action];
      if (!spec) throw new Error(`no action ${change.action} on ${name}`);
      const declared = resource.events ?? [];
      return [
        declared.includes('status_changed') ? `${name}.status_changed` : `${name}.${change.action}`,
        ...(spec.emits ? [`${name}.${spec.emits}`] : []),
      ];
    }
  }
}

/** Every change a resource can make. */
export function recordChanges(resource: Pick<Resource, 'lifecycle' | 'readOnly'>): RecordChange[] {
  // A read-only resource (the stock ledger and levels) changes by no route: it records none.
  if (resource.readOnly) return [];
  return [
    { kind: 'create' },
    { kind: 'update' },
    { kind: 'delete' },
    ...Object.keys(resource.lifecycle?.actions ?? {}).map(
      (action): RecordChange => ({ kind: 'action', action }),
    ),
  ];
}

/** Every event type a resource's changes record, each once. */
export function allChangeEventTypes(resource: Resource): string[] {
  return [...new Set(recordChanges(resource).flatMap((c) => changeEventTypes(resource, c)))];
}
